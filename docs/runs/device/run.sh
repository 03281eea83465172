#!/usr/bin/env bash
# The emulated device against the fluid model (docs/balance.md, "A disk that behaves like a disk"), from the
# repository's root after 'mvn -B -DskipTests package', as root, nothing else timed on the machine:
#   docs/runs/device/run.sh OUT
# 1. The grid, with the fluid mechanism (the default): two devices (50 MiB/s with a 128 MiB cache, 200 MiB/s with
#    512 MiB), writes of 0.5, 2, 3 and 5 times the cache in all, 1 and 2 writers, unpaced and paced at the seed's
#    balance (each writer a task whose disk per slot, the rate over the writers, is 0.774 of its rate).
# 2. The same devices with the legacy mechanism (as before 2026-11), unpaced, 2 to 5 times the cache, 1 writer.
# Every check traces the kernel's dirty throttle (--trace). One JSON line a check in OUT/fluid.jsonl and
# OUT/legacy.jsonl; summary.py OUT prints the tables.
set -u
out="${1:?usage: docs/runs/device/run.sh OUT}"
mkdir -p "$out"
check() { # mechanism spec bytes-per-writer-in-KiB writers pace
  local pace=()
  [[ "$5" != none ]] && pace=(--pace "$5")
  echo "== $(date +%T) $1 $2 bytes=$3k writers=$4 pace=$5" >&2
  scripts/sluice device check "$2" --mechanism "$1" --bytes "$3k" --writers "$4" "${pace[@]}" --trace \
    2>> "$out/$1.log" >> "$out/$1.jsonl" || echo "rc=$? for $*" >&2
}
echo "== start $(date +%T) $(git rev-parse --short HEAD) load: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for dev in "50 128" "200 512"; do
  set -- $dev; rate=$1; cache=$2
  for w in 1 2; do
    # The seed's balance: the disk per slot (the rate over the writers) is 0.774 of each task's rate.
    pace=$(python3 -c "print(f'{$rate * 1048576 / $w / 0.7738762772938338:.0f}')")
    for half in 1 4 6 10; do  # twice the multiple: 0.5, 2, 3, 5
      for p in none "$pace"; do
        check fluid "emulated:write=${rate}m:dirty=${cache}m" "$((cache * 1024 * half / 2 / w))" "$w" "$p" 2>&1
      done
    done
  done
done
for dev in "50 128" "200 512"; do
  set -- $dev
  for half in 4 6 10; do
    check legacy "emulated:write=$1m:dirty=$2m" "$(($2 * 1024 * half / 2))" 1 none 2>&1
  done
done
echo "== end $(date +%T) load: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
