"""Each measured wave of a ShuffleWriteBenchmark JSON result: its time, the JIT compilers' time in it
(jit.compilationMillis) and the process's user and system CPU time (cpu.userMillis, cpu.systemMillis), in ms."""
import json
import sys

b = json.load(open(sys.argv[1]))[0]
sm = b['secondaryMetrics']
rows = zip(*([x for r in b['primaryMetric']['rawData'] for x in r],) + tuple(
    [x for r in sm[k]['rawData'] for x in r] for k in ('jit.compilationMillis', 'cpu.userMillis', 'cpu.systemMillis')))
print('wave  ms  jit  user  system')
for i, (ms, jit, user, system) in enumerate(rows, 1):
    print('%d  %.1f  %.0f  %.0f  %.0f' % (i, ms, jit, user, system))
