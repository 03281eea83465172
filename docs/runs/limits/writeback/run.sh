#!/usr/bin/env bash
# When writeback starts on the emulated seed disk: /proc/meminfo's Dirty and Writeback sampled every 5 ms while ideal's
# waves run (xxlarge, lz4-block, 2 tasks, scale 0.25: 1 warm-up wave of the full records and 3 measured waves), then
# while the raw write's do. Without the prefault, whose scratch file would be dirty memory of its own between waves.
# From the repository's root, after 'mvn -B -DskipTests package', as root (the emulated device):
#   docs/runs/limits/writeback/run.sh OUT
set -u
out="${1:?usage: docs/runs/limits/writeback/run.sh OUT}"
here="$(dirname "${BASH_SOURCE[0]}")"
mkdir -p "$out"
B="java -cp jmh/target/benchmarks.jar dev.sluice.jmh.SluiceBenchmarks"
P="-p size=xxlarge -p tasks=2 -p scale=0.25 -p codec=lz4-block -p device=seed-ssd -wi 1 -i 3 -f 1 -foe true"
python3 "$here/meminfo.py" "$out/ideal.tsv" 150 & sampler=$!
$B ShuffleWriteBenchmark -p strategy=ideal -p warmUp=full $P -jvmArgsAppend -Dsluice.prefault=false \
  > "$out/ideal.log" 2>&1
echo "ideal rc=$?"; wait $sampler
python3 "$here/meminfo.py" "$out/raw.tsv" 100 & sampler=$!
$B RawWriteBenchmark $P -jvmArgsAppend -Dsluice.prefault=false > "$out/raw.log" 2>&1
echo "raw rc=$?"; wait $sampler
grep -hE "^(ShuffleWrite|RawWrite)Benchmark\.(wave|writeSequentially) " "$out/ideal.log" "$out/raw.log" \
  | awk '{print $1, $(NF-3), $(NF-2), $(NF-1), $NF}'
for w in ideal raw; do
  echo "$w: each stretch of Dirty or Writeback above 30 MiB"
  python3 "$here/timeline.py" "$out/$w.tsv"
done
