#!/bin/bash
# docs/runs/device/queue/queue.sh NR KIB, from the repository's root after a build, as root, nothing else timed:
# one device check at 200 MiB/s with a 512 MiB cache, 1 writer of three times the cache, 2 rounds, with the fluid
# device's upper queue set to NR requests of KIB KiB (a watcher rewrites the queue the device set, 16 x 128, as soon
# as it appears, before the rate limit's training); prints each round's measured time over the fluid model's.
nr=$1; kib=$2
( for i in $(seq 1 400); do
    for d in /sys/block/loop6[4-9] /sys/block/loop7[0-9]; do
      [ -e $d/loop/backing_file ] || continue
      if grep -q "^/dev/loop" $d/loop/backing_file 2>/dev/null && [ "$(cat $d/queue/nr_requests)" = 16 ] && [ "$(cat $d/queue/max_sectors_kb)" = 128 ]; then
        echo $kib > $d/queue/max_sectors_kb; echo $nr > $d/queue/nr_requests; echo "set $d $(cat $d/queue/nr_requests) $(cat $d/queue/max_sectors_kb)" >&2; exit 0
      fi
    done; sleep 0.05; done ) &
w=$!
scripts/sluice device check emulated:write=200m:dirty=512m --bytes 1536m --writers 1 --rounds 2 2>/dev/null | python3 -c "
import json,sys; d=json.load(sys.stdin); print('$nr x $kib', [round(r['measuredMillis']/d['fluidMillis'],3) for r in d['rounds']])"
kill $w 2>/dev/null; wait 2>/dev/null
