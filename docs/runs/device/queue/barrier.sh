#!/bin/bash
# docs/runs/device/queue/barrier.sh BARRIER BYTES WRITERS, from the repository's root after a build, as root, nothing
# else timed: one device check at 200 MiB/s with a 512 MiB cache, WRITERS writers of BYTES each, 2 rounds; with
# BARRIER 0 a watcher remounts the device's file system with barrier=0 as soon as it is mounted (before the rate
# limit's training). Prints each round's measured time over the fluid model's.
bar=$1; bytes=$2; w=$3
( [ $bar = 0 ] || exit 0; for i in $(seq 1 400); do
    m=$(grep -o "[^ ]*sluice-device-[^ ]*\.mnt" /proc/mounts | head -1)
    if [ -n "$m" ]; then mount -o remount,barrier=0 $m && echo "remounted $m $(grep $m /proc/mounts | cut -d' ' -f4)" >&2; exit 0; fi
    sleep 0.05; done ) &
wt=$!
scripts/sluice device check emulated:write=200m:dirty=512m --bytes $bytes --writers $w --rounds 2 2>/dev/null | python3 -c "
import json,sys; d=json.load(sys.stdin); print('barrier=$bar $bytes x $w', [round(r['measuredMillis']/d['fluidMillis'],3) for r in d['rounds']])"
kill $wt 2>/dev/null; wait 2>/dev/null
