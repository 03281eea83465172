#!/usr/bin/env bash
# The runs behind docs/limits.md's "Free memory given back to the host", as run there: docs/runs/prefault/run.sh DIR
# (DIR on the file system the benchmarks write to; nothing else running on the machine).
set -eu
d="${1:?usage: docs/runs/prefault/run.sh DIR}"
here="$(dirname "$0")"
echo "== $(date +%T) $(uname -r); page_reporting_order $(cat /sys/module/page_reporting/parameters/page_reporting_order 2>/dev/null || echo none)"
python3 "$here/freepages.py" pauses "$d" 256 0,0.5,1,1.5,2,3,4 5
for kind in file tmpfs anon; do
  python3 "$here/freepages.py" prefault "$d" 256 "$kind" 0 4
  python3 "$here/freepages.py" prefault "$d" 256 "$kind" 256 4
done
echo "== $(date +%T) done"
