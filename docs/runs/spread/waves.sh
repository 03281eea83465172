#!/usr/bin/env bash
# Async's waves profiled one by one (docs/paired.md, "Async's slow waves, profiled wave by wave"): per-batch and async
# paired at small, seed-equivalent scale, 2 tasks, 16 rounds, a CPU profile per measured wave (WaveProfiler's
# perWave); then the same rounds unprofiled with the guest's steal time over them (/proc/stat's cpu line, in ticks of
# 10 ms). From the repository's root after 'mvn -B -DskipTests package'; then
#   docs/runs/spread/waves.py OUT/async-cpu.json OUT/async-cpu 1
# Usage: docs/runs/spread/waves.sh OUT
set -euo pipefail
out="${1:?usage: waves.sh OUT}"
mkdir -p "$out"
lib="$PWD/jmh/target/async-profiler/linux-x64/libasyncProfiler.so"
B=(java -cp jmh/target/benchmarks.jar dev.sluice.jmh.SluiceBenchmarks PairedWaveBenchmark -p strategies=per-batch+async
   -p memoryLimit=none+none -p size=small -p scale=seed-equivalent -p tasks=2 -p codec=lz4-block -f 1 -foe true)
"${B[@]}" -wi 2 -i 32 -jvmArgsAppend "-XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints" -rf json \
  -rff "$out/async-cpu.json" -prof "dev.sluice.jmh.profile.WaveProfiler:libPath=$lib;event=cpu;dir=$out/async-cpu;perWave=true" \
  > "$out/async-cpu.log" 2>&1
before=($(head -1 /proc/stat))
"${B[@]}" -wi 2 -i 32 -rf json -rff "$out/async-steal.json" > "$out/async-steal.log" 2>&1
after=($(head -1 /proc/stat))
echo "over the unprofiled rounds: user $((after[1] - before[1])), system $((after[3] - before[3])), steal $((after[8] - before[8])) ticks"
