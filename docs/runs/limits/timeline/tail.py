"""Reads instrument.patch's timeline (stderr of the benchmark: time in ms, thread, map, event) and prints, for each of
the last 4 measured waves, when the last record's compression ended, when the last task's write ended, and the tail between."""
import re,sys
lines=open(sys.argv[1]).read().split('\n')
waves=[];cur=[]
for l in lines:
    m=re.search(r'(\d+\.\d+E\d+|\d+\.\d+) (\S+) map (\d+) (.*)',l)
    if 'Iteration' in l and cur: waves.append(cur);cur=[]
    if m: cur.append((float(m.group(1)),m.group(2),int(m.group(3)),m.group(4)))
waves.append(cur)
for w in waves[-4:]:
    t0=min(e[0] for e in w)
    lastc=max(t for t,th,mp,ev in w if 'compress' in ev)
    lastw=max(t for t,th,mp,ev in w if 'written' in ev)
    print('wave: last compression %.1f ms, last written %.1f ms, tail %.1f ms'%(lastc-t0,lastw-t0,lastw-lastc))
