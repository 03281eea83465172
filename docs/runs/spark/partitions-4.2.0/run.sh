#!/usr/bin/env bash
# Spark's own writer above 200 partitions (UnsafeShuffleWriter) beside Sluice's sort, which models it, per-batch and
# buffered, at 1000 and 5000 partitions on Spark 4.2.0 (spark-bench's default): small x 0.1, 2 tasks, 1 warm-up and 5
# measured rounds, paired, every output verified. Writes pN.jsonl (stdout) and pN-progress.txt (stderr) here.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../../.." && pwd)"
for n in 1000 5000; do
  "$root/scripts/spark-bench" --writers stock,sort,per-batch,buffered --partitions "$n" \
    > "$here/p$n.jsonl" 2> "$here/p$n-progress.txt"
done
