"""Samples /proc/meminfo every 5 ms for SECONDS: monotonic seconds, Dirty MiB, Writeback MiB, a line each, into FILE.
Usage: meminfo.py FILE SECONDS"""
import time,sys
out=open(sys.argv[1],'w'); end=time.time()+float(sys.argv[2])
while time.time()<end:
    d=w=0
    for l in open('/proc/meminfo'):
        if l.startswith('Dirty:'): d=int(l.split()[1])
        elif l.startswith('Writeback:'): w=int(l.split()[1])
    out.write('%.4f %d %d\n'%(time.monotonic(),d//1024,w//1024))
    time.sleep(0.005)
