#!/usr/bin/env python3
"""Per-wave profiles beside per-wave figures: which frames a slow wave has more of than a fast one.
usage: waves.py JMH_JSON PROFILE_DIR STRATEGY_INDEX [top]
Reads the paired run's JSON (per measured iteration: time, pair.strategy, cpu.systemMillis), the per-wave collapsed
profiles TRIAL-wave-N-collapsed.txt (N = measured iteration, from 1), and prints per wave its time, system CPU, its
samples, and then, for the strategy's slowest and fastest halves, the mean samples of the frames that differ most.
The profiles may be gzipped (TRIAL-wave-N-collapsed.txt.gz), as the committed ones are."""
import collections, glob, gzip, json, re, sys
jf, pdir, idx = sys.argv[1], sys.argv[2], int(sys.argv[3])
top = int(sys.argv[4]) if len(sys.argv) > 4 else 25
b = json.load(open(jf))[0]
sm = b['secondaryMetrics']
raw = lambda k: sm[k]['rawData'][0]
times = b['primaryMetric']['rawData'][0]
strat = raw('pair.strategy'); sysm = raw('cpu.systemMillis'); faults = raw('cpu.minorFaults')
user = raw('cpu.userMillis')
files = {int(re.search(r'-wave-(\d+)-collapsed', f).group(1)): f
         for f in glob.glob(pdir + '/*-wave-*-collapsed.txt') + glob.glob(pdir + '/*-wave-*-collapsed.txt.gz')}
waves = []
for i, t in enumerate(times):
    if int(strat[i]) != idx: continue
    f = files.get(i + 1)
    frames = collections.Counter(); total = 0; kernel = 0
    if f:
        for line in (gzip.open(f, 'rt') if f.endswith('.gz') else open(f)):
            stack, n = line.rstrip('\n').rsplit(' ', 1); n = int(n); total += n
            fs = stack.split(';')
            if any(x.endswith('_[k]') for x in fs): kernel += n
            for x in set(fs): frames[x] += n
    waves.append((t, sysm[i], faults[i], total, kernel, frames, user[i]))
    print('wave %2d: %6.0f ms  sys %5.0f ms  faults %6.0f  samples %5d  kernel %5d' % (i + 1, t, sysm[i], faults[i], total, kernel))
waves.sort(key=lambda w: w[0])
h = len(waves) // 2
fast, slow = waves[:h], waves[-h:]
def mean(ws, k): return sum(w[5][k] for w in ws) / len(ws)
keys = set().union(*[w[5].keys() for w in waves])
diff = sorted(keys, key=lambda k: mean(slow, k) - mean(fast, k), reverse=True)
print('\nfast half: %s ms; slow half: %s ms' % ([round(w[0]) for w in fast], [round(w[0]) for w in slow]))
for name, half in (('fast', fast), ('slow', slow)):
    m = lambda j: sum(w[j] for w in half) / len(half)
    print('%s half, mean a wave: %.0f ms, system %.0f ms, user %.0f ms, faults %.0f, samples %.1f, kernel samples %.1f'
          % (name, m(0), m(1), m(6), m(2), m(3), m(4)))
print('%-90s %8s %8s' % ('frame (samples whose stack passes through it, mean per wave)', 'fast', 'slow'))
for k in diff[:top]:
    print('%-90s %8.1f %8.1f' % (k[:90], mean(fast, k), mean(slow, k)))
