#!/usr/bin/env bash
# Why heap-1g's async map task ran out of heap: async alone, as heap-1g ran it (1 GiB heap, large x 1.2, the manager's
# default memory limit), with the JVM's live objects by class (jcmd GC.class_histogram, which collects first) every
# 3 s from 20 s on. Writes profile-heap-1g.{jsonl,log,jvm-warnings.txt,histograms.txt} here; WORK is scratch.
# (The committed files are one run of the same spark-bench command and sampling, whose histograms were kept whole and
# cut to these lines afterwards; the samples' clock times were not kept.)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../../.." && pwd)"
work="${WORK:-$(mktemp -d)}"
rm -rf "$work/profile"
SLUICE_JAVA_OPTS=-Xmx1g "$root/scripts/spark-bench" --size large --scale 1.2 --warmup 0 --iterations 1 \
  --memory-limit default --writers async --work "$work/profile" > "$work/profile.out" 2> "$here/profile-heap-1g.log" &
bench=$!
sleep 20
pid=$(pgrep -f dev.sluice.spark.bench.SparkBench | head -1)
: > "$here/profile-heap-1g.histograms.txt"
i=0
while kill -0 "$bench" 2>/dev/null; do
  { echo "== sample $i, $(date -u +%T)"; jcmd "$pid" GC.class_histogram 2>/dev/null | sed -n 2,12p; } \
    >> "$here/profile-heap-1g.histograms.txt" || true
  i=$((i + 1))
  sleep 3
done
status=0
wait "$bench" || status=$?
grep '^{' "$work/profile.out" > "$here/profile-heap-1g.jsonl" || true
grep -v '^{' "$work/profile.out" > "$here/profile-heap-1g.jvm-warnings.txt" || true
exit "$status"
