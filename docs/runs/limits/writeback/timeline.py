"""Reads meminfo.py's samples and prints each stretch where Dirty or Writeback stood above 30 MiB (stretches apart by
0.3 s or more): its length, when Writeback first rose above 0 and Dirty then, and the stretch every 0.1 s as
seconds:Dirty/Writeback (MiB)."""
import sys

rows = [tuple(map(float, line.split())) for line in open(sys.argv[1])]
stretches, current = [], []
for t, dirty, writeback in rows:
    if dirty >= 30 or writeback > 0:
        if current and t - current[-1][0] > 0.3:
            stretches.append(current)
            current = []
        current.append((t, dirty, writeback))
if current:
    stretches.append(current)
for stretch in stretches:
    t0, k, out = stretch[0][0], 0, []
    first = next(((t - t0, dirty) for t, dirty, writeback in stretch if writeback > 0), None)
    for t, dirty, writeback in stretch:
        if t - t0 >= k * 0.1:
            out.append('%.1f:%d/%d' % (t - t0, dirty, writeback))
            k += 1
    start = 'writeback from %.2f s, Dirty %d MiB then' % first if first else 'no writeback'
    print('%.2f s, %s:' % (stretch[-1][0] - t0, start), ' '.join(out[:30]))
