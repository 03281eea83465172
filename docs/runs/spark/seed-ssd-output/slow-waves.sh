#!/usr/bin/env bash
# Where per-batch's slow mapper stages at small go in Spark on seed-ssd (docs/balance.md, "Both harnesses at the seed's
# bytes"): per-batch alone at the preset's small (sized by map output, its batch bytes), 1 warm-up and ROUNDS
# measured runs, with async-profiler (wall clock, every Java thread, collapsed stacks per thread) in the JVM and the
# kernel's tracepoints for the dirty throttle, ext4's unlinks and jbd2's commits recorded by perf for the whole run.
# Not a measurement of the writers: the profiler and perf run beside them (and the task rate the device is set
# from is measured under them too, and not kept). As root, from the repository's root after
# 'mvn -B -DskipTests install', nothing else running:
#   docs/runs/spark/seed-ssd-output/slow-waves.sh OUT 6
set -u
out="${1:?usage: slow-waves.sh OUT ROUNDS}"
rounds="${2:?usage: slow-waves.sh OUT ROUNDS}"
mkdir -p "$out/work" "$out/profiler"
jar=$(ls ~/.m2/repository/tools/profiler/async-profiler/4.1/async-profiler-4.1.jar)
(cd "$out/profiler" && unzip -o -q "$jar" linux-x64/libasyncProfiler.so)
mounted=
perf_pid=
cleanup() {
  [ -n "$perf_pid" ] && kill -INT "$perf_pid" 2>/dev/null && wait "$perf_pid" 2>/dev/null
  [ -n "$mounted" ] && umount /sys/kernel/tracing
  rm -rf "$out/work" "$out/profiler"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
if ! mountpoint -q /sys/kernel/tracing; then mount -t tracefs nodev /sys/kernel/tracing && mounted=1; fi
perf record -q -a -o "$out/perf.data" -e writeback:balance_dirty_pages -e jbd2:jbd2_run_stats \
  -e ext4:ext4_unlink_enter -e ext4:ext4_unlink_exit 2> "$out/perf.log" &
perf_pid=$!
echo "== start $(date +%T) $(git rev-parse --short HEAD)" >&2
SLUICE_TASK_RATE_CACHE=off SLUICE_JAVA_OPTS="-Xmx12g -Xlog:disable -Xlog:all=warning:stderr -agentpath:$out/profiler/linux-x64/libasyncProfiler.so=start,event=wall,interval=10ms,threads,collapsed,file=$out/wall.collapsed" \
  scripts/spark-bench --spark 4.1.1 --size small --batch-bytes 158565572 --device seed-ssd --scale 0.25 \
  --writers per-batch --iterations "$rounds" --work "$out/work" > "$out/spark-bench.jsonl" 2> "$out/spark-bench.log" \
  || echo "rc=$?" >&2
echo "== end $(date +%T)" >&2
kill -INT "$perf_pid"; wait "$perf_pid" 2>/dev/null; perf_pid=
perf script -i "$out/perf.data" -F comm,pid,tid,time,event,trace > "$out/perf.txt" 2>/dev/null
rm -f "$out/perf.data"
