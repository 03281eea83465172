#!/usr/bin/env bash
# The candidate sources of a wave's own spread (docs/paired.md, "Where a wave's own spread comes from"), measured one
# run each at small, the seed preset's strategies paired in 10 rounds, native storage, no budget; the gate as it is
# run first and last, so that the difference between two runs of the same setting is in the table too. Needs root
# (--drop-caches). Usage: docs/runs/spread/run.sh OUT_DIR; then spread.py prints the table from OUT_DIR's runs.
set -euo pipefail
out="${1:?usage: run.sh OUT_DIR}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
common=(--preset seed --sizes small --budget none --iterations 10 --device native)
run() {
  local label="$1"; shift
  echo "== $label" >&2
  "$root/scripts/bench.sh" "${common[@]}" "$@" --out "$out/$label" > /dev/null
}
run gate-1
run drop-caches --drop-caches true
JAVA_TOOL_OPTIONS=-XX:+AlwaysPreTouch run heap-pretouched
run one-task --tasks 1
run gate-2
python3 "$root/docs/runs/spread/spread.py" gate-1="$out/gate-1" drop-caches="$out/drop-caches" \
  heap-pretouched="$out/heap-pretouched" one-task="$out/one-task" gate-2="$out/gate-2"
