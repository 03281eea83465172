# Which threads of the machine took CPU during one wave of `scripts/sluice write` (docs/balance.md, "The crossover map"):
#   python3 docs/runs/balance/map-balances/others-cpu/threads.py scripts/sluice write --strategy per-batch --size large \
#     --scale 0.25 --tasks 2 --device per-slot:write=160m:dirty=1000000000:produce=100m --out DIR
# Every thread's utime + stime (/proc/*/task/*/stat) when the command says it starts writing and when it says it is done,
# the difference summed by thread name (digits as N), in ms (10 ms ticks). Linux, root for other users' threads.
import subprocess, sys, os, re, collections
def snap():
    d={}
    for pid in os.listdir('/proc'):
        if not pid.isdigit(): continue
        try:
            for tid in os.listdir(f'/proc/{pid}/task'):
                try:
                    s=open(f'/proc/{pid}/task/{tid}/stat').read()
                except Exception: continue
                comm=s[s.index('(')+1:s.rindex(')')]
                f=s[s.rindex(')')+2:].split()
                d[(pid,tid)]=(comm,int(f[11])+int(f[12]))
        except Exception: pass
    return d
def norm(c):
    c=re.sub(r'\d+','N',c)
    return c
cmd=sys.argv[1:]
p=subprocess.Popen(cmd,stderr=subprocess.PIPE,stdout=subprocess.DEVNULL,text=True)
a=None; res=None
for line in p.stderr:
    if 'writing' in line and 'at once with' in line and 'done' not in line:
        a=snap()
    elif 'writing' in line and 'done in' in line and a is not None:
        b=snap(); res=(a,b); print(line.strip()[:160])
p.wait()
a,b=res
tot=collections.Counter()
me=str(p.pid)
for k,(comm,t) in b.items():
    t0=a.get(k,(comm,0))[1]
    dt=t-t0
    if dt<=0: continue
    who='java(sluice)' if k[0]==me else norm(comm)
    tot[who]+=dt
for w,t in tot.most_common(15): print(f'{w:30s} {t*10:6d} ms')
