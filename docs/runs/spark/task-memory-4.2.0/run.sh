# Spark's memory against a shuffle about four times larger, on Spark 4.2.0 (spark-bench's default) in local mode (one
# JVM: the driver is the executor): one round at large x SCALE, two map tasks, the manager's default memory limit
# (--memory-limit default) and spark.sluice.taskMemory at its default (true: the consolidating strategies' partials
# are memory of the task in Spark's memory manager), Spark's unified memory being what is left of the heap (the log
# says how much). Every output verified; a Sluice writer's run fails where Sluice did not write every map output.
#   heap-1g:  a 1 GiB heap, large x 1.2 (about 1.8 GB of shuffle against 434 MiB): async's map task ran out of heap.
#   heap-2g:  a 2 GiB heap, large x 2.8 (about 4.2 GB of shuffle against about 1 GiB), every default writer.
#   heap-2g-outside-spark: the same, buffered with spark.sluice.taskMemory=false (partials outside Spark's pools,
#             bounded by the memory limit alone).
#   no-limit, no-limit-outside-spark: a 1 GiB heap, large x 1.2, buffered without the executor's limit
#             (--memory-limit none, spark-bench's default), with and without spark.sluice.taskMemory: what Spark's
#             grant alone does to the partials.
#   no-limit-jdk25: no-limit on JDK 25 (JAVA_HOME=JDK25 ./run.sh no-limit-jdk25), whose G1 pins regions instead of
#             stalling allocations behind JNI critical sections (JEP 423, JDK 22): no GCLocker.
# heap-1g, heap-2g and heap-2g-outside-spark ran before the -Xlog options below were added: heap-1g's stdout held four
# warnings of the JVM's (G1's GCLocker) besides its JSON lines, now in heap-1g.jvm-warnings.txt; the JVM's warnings
# now go to stderr, so every .jsonl holds JSON lines only. no-limit ran twice: no-limit.first-attempt.log is the
# first attempt's output (stdout and stderr), which failed; no-limit.{jsonl,log} are the second's.
# Writes NAME.jsonl and NAME.log (stderr) here; WORK is scratch. ./run.sh NAME runs one.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../../.." && pwd)"
work="${WORK:-$(mktemp -d)}"
run() {
  local name="$1" heap="$2" scale="$3" limit="$4"
  shift 4
  rm -rf "$work/$name"
  SLUICE_JAVA_OPTS="-Xmx$heap -Xlog:disable -Xlog:all=warning:stderr" "$root/scripts/spark-bench" --size large \
    --scale "$scale" --warmup 0 --iterations 1 --memory-limit "$limit" --work "$work/$name" "$@" > "$here/$name.jsonl" 2> >(tee "$here/$name.log" >&2)
}
case "${1:-all}" in
  heap-1g) run heap-1g 1g 1.2 default ;;
  heap-2g) run heap-2g 2g 2.8 default ;;
  heap-2g-outside-spark) run heap-2g-outside-spark 2g 2.8 default --writers buffered --conf spark.sluice.taskMemory=false ;;
  no-limit) run no-limit 1g 1.2 none --writers buffered ;;
  no-limit-jdk25) run no-limit-jdk25 1g 1.2 none --writers buffered ;;
  no-limit-outside-spark) run no-limit-outside-spark 1g 1.2 none --writers buffered \
    --conf spark.sluice.taskMemory=false ;;
  all)
    run heap-1g 1g 1.2 default || echo "heap-1g failed (exit $?)" >&2
    run heap-2g 2g 2.8 default
    run heap-2g-outside-spark 2g 2.8 default --writers buffered --conf spark.sluice.taskMemory=false
    run no-limit 1g 1.2 none --writers buffered
    run no-limit-outside-spark 1g 1.2 none --writers buffered --conf spark.sluice.taskMemory=false
    ;;
  *) echo "usage: $0 [heap-1g|heap-2g|heap-2g-outside-spark|no-limit|no-limit-outside-spark|no-limit-jdk25|all]" >&2
     exit 2 ;;
esac
