#!/usr/bin/env bash
# The JIT compilers' time in each of ideal's waves without compression (jit.compilationMillis, from 0fe6784), one
# warm-up wave of the full records and 24 (small) or 16 (xxlarge) measured waves, prefaulted; from the repository's
# root, after 'mvn -B -DskipTests package':
#   docs/runs/limits/jit/run.sh OUT
# (as run here, holding the lock that the machine's timed runs share). waves.py prints each wave's time beside the
# compilers' time and the process's user and system time in it.
set -u
out="${1:?usage: docs/runs/limits/jit/run.sh OUT}"
mkdir -p "$out"
B="java -cp jmh/target/benchmarks.jar dev.sluice.jmh.SluiceBenchmarks"
for size in small xxlarge; do
  it=24; [[ $size == xxlarge ]] && it=16
  $B ShuffleWriteBenchmark -p strategy=ideal -p size=$size -p tasks=2 -p scale=0.25 -p codec=none -p warmUp=full \
    -wi 1 -i $it -f 1 -foe true -jvmArgsAppend -Dsluice.prefault=true -rf json -rff "$out/$size.json" \
    > "$out/$size.log" 2>&1
  echo "$size rc=$?"
  python3 "$(dirname "${BASH_SOURCE[0]}")/waves.py" "$out/$size.json"
done
