#!/usr/bin/env bash
# More pairs in Spark on seed-ssd at the current code, beside the harness's 15 pairs a size
# (docs/runs/balance/seed-ssd-pairs; docs/balance.md, "More pairs on seed-ssd"): per-batch and buffered, the
# seed-ssd-queue run's settings (Spark 4.1.1, scale 0.25, 2 tasks), each size cut into the seed's batches a task as
# the preset cuts it (its batch bytes, as in docs/runs/spark/seed-ssd-queue), SIZE:ROUNDS measured rounds each.
# From the repository's root after 'mvn -B -DskipTests install', as root, nothing else timed on the machine:
#   docs/runs/spark/seed-ssd-more/run.sh OUT small:10 xlarge:8       # run first (6961043)
#   docs/runs/spark/seed-ssd-more/run.sh OUT medium:8 large:8 xxlarge:6
set -u
out="${1:?usage: docs/runs/spark/seed-ssd-more/run.sh OUT SIZE:ROUNDS...}"
shift
declare -A batch=([small]=100499960 [medium]=100375000 [large]=98333327 [xlarge]=98124994 [xxlarge]=97499996)
mkdir -p "$out/work"
common=(--spark 4.1.1 --device seed-ssd --scale 0.25 --writers per-batch,buffered --work "$out/work")
echo "== start $(date +%T) $(git rev-parse --short HEAD)" >&2
for point in "$@"; do
  size="${point%%:*}"; rounds="${point##*:}"
  scripts/spark-bench "${common[@]}" --size "$size" --batch-bytes "${batch[$size]}" --iterations "$rounds" \
    > "$out/$size.jsonl" 2> "$out/$size.log" || echo "rc=$? for $size" >&2
done
echo "== end $(date +%T)" >&2
