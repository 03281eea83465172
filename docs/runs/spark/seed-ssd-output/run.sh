#!/usr/bin/env bash
# The seed preset in Spark on seed-ssd with each map task sized by its map output (spark-bench's --size-by output,
# the default since 360df95): per-batch and buffered, Spark 4.1.1 as in docs/runs/spark/seed-ssd-more, scale 0.25,
# 2 tasks, 1 warm-up and ROUNDS measured rounds a size. The heap is 12 GiB, not spark-bench's 6: a task's rows stay on
# the heap until its strategy commits, and sized by output a task has 1.58 times the rows it had by serialized rows.
# From the repository's root after 'mvn -B -DskipTests install', as root, nothing else timed on the machine:
#   docs/runs/spark/seed-ssd-output/run.sh OUT 6
set -u
out="${1:?usage: docs/runs/spark/seed-ssd-output/run.sh OUT ROUNDS}"
rounds="${2:?usage: docs/runs/spark/seed-ssd-output/run.sh OUT ROUNDS}"
mkdir -p "$out/work"
echo "== start $(date +%T) $(git rev-parse --short HEAD)" >&2
SLUICE_JAVA_OPTS="-Xmx12g -Xlog:disable -Xlog:all=warning:stderr" scripts/spark-bench --spark 4.1.1 \
  --preset seed --device seed-ssd --scale 0.25 --writers per-batch,buffered --iterations "$rounds" \
  --work "$out/work" > "$out/spark-bench.jsonl" 2> "$out/spark-bench.log" || echo "rc=$?" >&2
echo "== end $(date +%T)" >&2
