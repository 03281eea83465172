#!/usr/bin/env bash
# The runs behind docs/limits.md, one after the other, from the repository's root, after 'mvn -B -DskipTests package':
#   docs/runs/limits/run.sh OUT
# Each bench.sh run measures its floors itself (serialize, compress, beside the raw write: --floors true, the default)
# and prefaults every wave (--prefault true, the default); the two runs without compression are run once more with
# --prefault false, to show what the prefault does, and once more with --warmups 4, to show what the JIT compiler
# still compiling in the first measured waves costs ideal (the profile without compression found it).
# (as run here, holding the lock that the machine's timed runs share, so that no other timed run shared the machine).
set -u
out="${1:?usage: docs/runs/limits/run.sh OUT}"
mkdir -p "$out"
echo "== start $(date +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)"
S=per-batch,buffered,async,consolidated-best,ideal
B="java -cp jmh/target/benchmarks.jar dev.sluice.jmh.SluiceBenchmarks"
for codec in lz4-block none; do
  for size in small xxlarge; do
    it=20; [[ $size == xxlarge ]] && it=10
    echo "== $(date +%T) bench $size $codec native"
    scripts/bench.sh --strategies $S --sizes $size --scale 0.25 --tasks 2 --codec $codec --iterations $it --budget none \
      --warmup-records full --out "$out/$size-$codec" > "$out/$size-$codec.log" 2>&1; echo "rc=$?"
  done
done
for size in small xxlarge; do
  it=20; [[ $size == xxlarge ]] && it=10
  echo "== $(date +%T) bench $size none native, no prefault"
  scripts/bench.sh --strategies $S --sizes $size --scale 0.25 --tasks 2 --codec none --iterations $it --budget none \
    --warmup-records full --prefault false --out "$out/$size-none-noprefault" > "$out/$size-none-noprefault.log" 2>&1
  echo "rc=$?"
done
for size in small xxlarge; do
  it=20; [[ $size == xxlarge ]] && it=10
  echo "== $(date +%T) bench $size none native, 4 warm-up waves"
  scripts/bench.sh --strategies $S --sizes $size --scale 0.25 --tasks 2 --codec none --iterations $it --budget none \
    --warmup-records full --warmups 4 --out "$out/$size-none-warm4" > "$out/$size-none-warm4.log" 2>&1
  echo "rc=$?"
done
for size in small xxlarge; do
  it=10; [[ $size == xxlarge ]] && it=6
  echo "== $(date +%T) bench $size lz4-block seed-ssd"
  scripts/bench.sh --strategies $S --sizes $size --scale 0.25 --tasks 2 --codec lz4-block --iterations $it --budget none \
    --warmup-records full --device seed-ssd --out "$out/$size-lz4-block-seed-ssd" \
    > "$out/$size-lz4-block-seed-ssd.log" 2>&1; echo "rc=$?"
done
echo "== $(date +%T) counting"
for size in small xxlarge; do
  it=40; [[ $size == xxlarge ]] && it=20
  for strategy in per-batch consolidated-best; do
    $B PairedWaveBenchmark -p strategies=$strategy+$strategy -p counting=true+false -p size=$size -p scale=0.25 \
      -p tasks=2 -p codec=lz4-block -p warmUp=full -wi 2 -i $it -f 1 -foe true -jvmArgsAppend -Dsluice.prefault=true \
      -rf json \
      -rff "$out/counting-$size-$strategy.json" > "$out/counting-$size-$strategy.log" 2>&1; echo "rc=$?"
  done
done
echo "== $(date +%T) the raw write from 4 MiB of one shared buffer (its source before sourceBytes) and from 64 MiB per thread (the default)"
for codec in none lz4-block; do
  $B RawWriteBenchmark -p size=xxlarge -p tasks=2 -p scale=0.25 -p codec=$codec -p sourceBytes=4194304,67108864 \
    -wi 2 -i 15 -f 1 -foe true -jvmArgsAppend -Dsluice.prefault=true -rf json -rff "$out/raw-source-$codec.json" \
    > "$out/raw-source-$codec.log" 2>&1; echo "rc=$?"
done
echo "== $(date +%T) profiles"
scripts/profile.sh --strategy ideal --size small --tasks 2 --scale 0.25 --codec lz4-block --iterations 10 \
  --warmup-records full --out "$out/prof" > "$out/prof-ideal.txt" 2>&1; echo "rc=$?"
scripts/profile.sh --strategy ideal --size xxlarge --tasks 2 --scale 0.25 --codec lz4-block --iterations 6 \
  --warmup-records full --out "$out/prof-xx" > "$out/prof-ideal-xxlarge.txt" 2>&1; echo "rc=$?"
# ideal's page faults at xxlarge with lz4, wave by wave, paired with per-batch as bench.sh pairs them, prefaulted as
# bench.sh does (WaveProfiler's perWave: one collapsed profile per measured wave; wave N is JMH's measured iteration N,
# its strategy pair.strategy in the JSON; docs/runs/limits/faults.py reads them).
lib="$PWD/jmh/target/async-profiler/linux-x64/libasyncProfiler.so"
$B PairedWaveBenchmark -p strategies=per-batch+ideal -p memoryLimit=none+none -p size=xxlarge -p scale=0.25 -p tasks=2 \
  -p codec=lz4-block -p warmUp=full -f 1 -foe true -wi 2 -i 20 -jvmArgsAppend -Dsluice.prefault=true -rf json \
  -rff "$out/ideal-faults.json" \
  -prof "dev.sluice.jmh.profile.WaveProfiler:libPath=$lib;event=page-faults;dir=$out/ideal-faults;perWave=true" \
  > "$out/ideal-faults.log" 2>&1; echo "rc=$?"
echo "== end $(date +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)"
