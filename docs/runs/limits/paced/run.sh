#!/usr/bin/env bash
# The paced write beside the other floors (docs/limits.md, "The paced write"), from the repository's root, after
# 'mvn -B -DskipTests package', as root (the emulated device, perf's tracepoints):
#   docs/runs/limits/paced/run.sh OUT [traces]
# ('traces': step 2 alone, with step 1's logs in OUT).
# 1. bench.sh with lz4-block at small and xxlarge, on native storage and on the emulated seed disk, as
#    docs/runs/limits/run.sh runs them: every floor, the paced write among them, in the same run.
# 2. On the seed disk at xxlarge: the kernel's dirty throttle (tracepoint writeback:balance_dirty_pages) and every
#    write system call of ideal's waves, of the raw write's and of the paced write's (at the pace step 1's run used),
#    perf following the benchmark's processes; throttle.py sums them per wave and thread.
# (as run here, holding the lock that the machine's timed runs share, so that no other timed run shared the machine).
set -u
out="${1:?usage: docs/runs/limits/paced/run.sh OUT}"
here="$(dirname "${BASH_SOURCE[0]}")"
mkdir -p "$out"
echo "== start $(date +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)"
S=per-batch,buffered,async,consolidated-best,ideal
for device in native seed-ssd; do
  [[ "${2:-}" == traces ]] && break
  for size in small xxlarge; do
    it=20; [[ $size == xxlarge ]] && it=10
    [[ $device == seed-ssd ]] && { it=10; [[ $size == xxlarge ]] && it=8; }
    echo "== $(date +%T) bench $size lz4-block $device"
    scripts/bench.sh --strategies $S --sizes $size --scale 0.25 --tasks 2 --codec lz4-block --iterations $it \
      --budget none --warmup-records full --device $device --out "$out/$size-lz4-block-$device" \
      > "$out/$size-lz4-block-$device.log" 2>&1; echo "rc=$?"
  done
done
pace=$(sed -n 's/.*pace = \([0-9]*\) bytes.*/\1/p' "$out/xxlarge-lz4-block-seed-ssd.log")
bytes=$(sed -n 's/.*fileBytes = \([0-9]*\) .*/\1/p' "$out/xxlarge-lz4-block-seed-ssd.log")
echo "== $(date +%T) traces on seed-ssd at xxlarge, $bytes bytes per task, the paced write at $pace bytes/s per thread"
B="java -cp jmh/target/benchmarks.jar dev.sluice.jmh.SluiceBenchmarks"
P="-p size=xxlarge -p tasks=2 -p scale=0.25 -p codec=lz4-block -p device=seed-ssd -wi 1 -i 6 -f 1 -foe true"
E=(-e writeback:balance_dirty_pages -e 'syscalls:sys_enter_write*' -e 'syscalls:sys_exit_write*'
   -e 'syscalls:sys_enter_pwrite*' -e 'syscalls:sys_exit_pwrite*')
for w in ideal raw paced; do
  case $w in
    ideal) run=(ShuffleWriteBenchmark -p strategy=ideal -p warmUp=full) ;;
    raw) run=(RawWriteBenchmark -p fileBytes="$bytes") ;;
    paced) run=(RawWriteBenchmark -p fileBytes="$bytes" -p pace="$pace") ;;
  esac
  perf record "${E[@]}" -o "$out/trace-$w.data" -- $B "${run[@]}" $P -jvmArgsAppend -Dsluice.prefault=true \
    > "$out/trace-$w.log" 2>&1; echo "trace $w rc=$?"
  perf script -i "$out/trace-$w.data" -F comm,tid,time,event,trace --ns 2>/dev/null \
    | python3 "$here/throttle.py" "$bytes" > "$out/trace-$w.txt"
  rm -f "$out/trace-$w.data"
  grep -E "^(ShuffleWrite|RawWrite)Benchmark\.(wave|writeSequentially) " "$out/trace-$w.log" \
    | awk '{print $1, $(NF-3), $(NF-2), $(NF-1), $NF}'
  grep -E "^Iteration" "$out/trace-$w.log"
  cat "$out/trace-$w.txt"
done
echo "== end $(date +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)"
