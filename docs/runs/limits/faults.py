#!/usr/bin/env python3
"""Where a strategy's page faults come from, wave by wave: per measured wave of one strategy, its faults (samples of
WaveProfiler's page-faults event, one per fault) under each of the frames given, and the rest.
usage: faults.py JMH_JSON PROFILE_DIR STRATEGY_INDEX FRAME [FRAME ...]"""
import glob, json, re, sys
jf, pdir, idx, frames = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
b = json.load(open(jf))[0]
times = b['primaryMetric']['rawData'][0]
strat = b['secondaryMetrics']['pair.strategy']['rawData'][0]
files = {int(re.search(r'-wave-(\d+)-collapsed', f).group(1)): f for f in glob.glob(pdir + '/*-wave-*-collapsed.txt')}
print('| wave | ms | faults | ' + ' | '.join(frames) + ' | other |')
print('|---|---|---|' + '---|' * (len(frames) + 1))
for i, t in enumerate(times):
    if int(strat[i]) != idx or i + 1 not in files:
        continue
    counts = [0] * len(frames); total = 0
    for line in open(files[i + 1]):
        stack, n = line.rstrip('\n').rsplit(' ', 1); n = int(n); total += n
        for k, frame in enumerate(frames):
            if frame in stack:
                counts[k] += n
                break
    print('| %d | %.0f | %d | %s | %d |' % (i + 1, t, total, ' | '.join(map(str, counts)), total - sum(counts)))
