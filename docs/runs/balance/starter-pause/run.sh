#!/usr/bin/env bash
# What the writeback starter's rhythm costs a map task on this machine's two cores (docs/balance.md, "The writeback
# starter's rhythm"), from the repository's root after 'mvn -B -DskipTests package', as root, nothing else timed on
# the machine:
#   docs/runs/balance/starter-pause/run.sh OUT [PAUSE_MS...]
# For each pause (default 5, the starter's default, 25 and 100 ms between its syncfs calls): per-batch and buffered
#    at small and medium on seed-ssd, the seed run's scale and tasks, 5 paired rounds a size, no floors.
# summary.py OUT prints the tables.
set -u
out="${1:?usage: docs/runs/balance/starter-pause/run.sh OUT [PAUSE_MS...]}"
shift
pauses=("$@")
[[ ${#pauses[@]} -eq 0 ]] && pauses=(5 25 100)
mkdir -p "$out"
echo "== start $(date +%T) $(git rev-parse --short HEAD) load: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for ms in "${pauses[@]}"; do
  SLUICE_WRITEBACK_PAUSE_MS=$ms scripts/bench.sh --preset seed --device seed-ssd --sizes small,medium --budget none \
    --iterations 5 --floors false --strategies per-batch,buffered --out "$out/pause-$ms" > /dev/null \
    2> "$out/pause-$ms.log" || echo "rc=$? for pause $ms" >&2
done
echo "== end $(date +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
