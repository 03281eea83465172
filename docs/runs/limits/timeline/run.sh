#!/usr/bin/env bash
# ideal's timeline at COMMIT: instrument.patch (timestamps of each record's compression and each task's last write,
# printed at each commit) applied in a worktree of its own, built, and 2 warm-up and 4 measured waves of ideal at
# xxlarge with lz4 (2 tasks, scale 0.25, prefaulted); tail.py prints, for each measured wave, how long the last
# write ended after the last compression. From the repository's root:
#   docs/runs/limits/timeline/run.sh COMMIT OUT      (8c9f051: arrival order; 101fe08: partition order)
set -eu
commit="${1:?usage: docs/runs/limits/timeline/run.sh COMMIT OUT}"
out="${2:?usage: docs/runs/limits/timeline/run.sh COMMIT OUT}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mkdir -p "$out"
tree="$(mktemp -d)"
trap 'git worktree remove --force "$tree" >/dev/null 2>&1 || true' EXIT
git worktree add -q --detach "$tree" "$commit"
git -C "$tree" apply "$here/instrument.patch"
(cd "$tree" && mvn -B -q -DskipTests -Dspotless.check.skip=true package > "$out/build.log" 2>&1)
java -cp "$tree/jmh/target/benchmarks.jar" dev.sluice.jmh.SluiceBenchmarks ShuffleWriteBenchmark -p strategy=ideal \
  -p size=xxlarge -p tasks=2 -p scale=0.25 -p codec=lz4-block -p warmUp=full -wi 2 -i 4 -f 1 -foe true \
  -jvmArgsAppend -Dsluice.prefault=true > "$out/timeline-$commit.log" 2>&1
python3 "$here/tail.py" "$out/timeline-$commit.log"
