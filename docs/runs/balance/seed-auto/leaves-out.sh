#!/usr/bin/env bash
# What the fluid model leaves out of the seed's experiment on seed-ssd (docs/balance.md, "The seed's experiment on the
# fluid device"), from the repository's root after a build, as root, nothing else timed on the machine:
#   docs/runs/balance/seed-auto/leaves-out.sh OUT
# 1. native: per-batch and buffered at the seed run's scale and tasks on native storage, 5 paired rounds a size: each
#    strategy's own time with no device, which the model takes to be the same for both (the task rate, per-batch's at
#    small).
# 2. starter, no-starter: small and medium on seed-ssd, 5 paired rounds each, with the device as it is, then with its
#    writeback starter stopped as soon as it starts (a watcher kills it; the kernel's own writeback then starts at the
#    freerun ceiling): what writeback during the wave costs the tasks on this machine's 2 cores.
set -u
out="${1:?usage: docs/runs/balance/seed-auto/leaves-out.sh OUT}"
mkdir -p "$out"
common=(--budget none --iterations 5 --floors false --strategies per-batch,buffered)
scripts/bench.sh --preset seed --device native --scale 0.25 --sizes small,medium,large,xlarge,xxlarge "${common[@]}" \
  --out "$out/native"
scripts/bench.sh --preset seed --device seed-ssd --sizes small,medium "${common[@]}" --out "$out/starter"
rm -f "$out/stop"
(while [[ ! -e "$out/stop" ]]; do pkill -f sluice-writeback-starter; sleep 0.3; done) &
scripts/bench.sh --preset seed --device seed-ssd --sizes small,medium "${common[@]}" --out "$out/no-starter"
touch "$out/stop"
wait
