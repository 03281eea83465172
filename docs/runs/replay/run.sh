#!/usr/bin/env bash
# The replay of issue 46: the committed main jobs whose stops.json records what the allocation measured of each size
# (seconds per round and per chunk: seed-main, seed-reserve, seed-prefault; the runs before them did not record it),
# replayed through the budget's allocation under each policy of dev.sluice.bench.Replay. Needs the jars
# (mvn -B -DskipTests package); prints the Markdown table that replay.txt beside this script holds.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
java -cp bench/target/sluice-bench.jar:jmh/target/benchmarks.jar dev.sluice.bench.Replay \
  docs/runs/seed-main docs/runs/seed-reserve docs/runs/seed-prefault
