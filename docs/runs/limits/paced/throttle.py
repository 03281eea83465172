"""Reads `perf script -F comm,tid,time,event,trace` of a benchmark's processes (writeback:balance_dirty_pages and the
write system calls) and prints, for each wave and each writer thread (sluice-task-N: a map task's; sluice-raw-N: the raw write's): when its first write began and its last ended,
from the wave's first write; its calls and bytes; its time inside them; and the dirty throttle's pauses (the kernel
sleeps a writer in balance_dirty_pages when its device's dirty pages pass their limit), with when, how long, the
device's dirty MiB then, and the rate the kernel paces the device's writers at (dirty_ratelimit, which it estimates
from the device's writeback; a pause is what dirtying the writer's last pages takes at that rate, at most 200 ms). A thread's wave ends once it has written a data file's bytes (argument 1: bytes per task)
and 50 ms pass without a call (a map task writes its index right after its data file)."""
import collections
import re
import sys

events = []
for line in sys.stdin:
    m = re.match(r'\s*(\S.*?)\s+(\d+)\s+([\d.]+):\s+(\S+):\s*(.*)', line)
    if m and m.group(1).startswith(('sluice-task', 'sluice-raw')):
        comm, _, t, event, rest = m.groups()
        events.append((float(t), comm, event, rest))
events.sort()
file_bytes = int(sys.argv[1])
by_thread = collections.defaultdict(list)
for e in events:
    by_thread[e[1]].append(e)
waves = collections.defaultdict(list)
for comm, own in by_thread.items():
    wave, written, last = 0, 0, None
    for t, _, event, rest in own:
        if 'sys_enter_' in event and written >= file_bytes and t - last > 0.05:
            wave, written = wave + 1, 0
        if 'sys_exit_' in event and rest.strip().startswith('0x'):
            written += int(rest.strip(), 16)
        last = t
        waves[wave].append((t, comm, event, rest))
waves = [sorted(waves[k]) for k in sorted(waves)]
for i, wave in enumerate(waves):
    t0 = wave[0][0]
    threads = collections.defaultdict(lambda: {'first': None, 'end': 0.0, 'calls': 0, 'bytes': 0, 'inside': 0.0,
                                               'pauses': [], 'rates': set(), 'enter': None})
    for t, comm, event, rest in wave:
        th = threads[comm]
        if 'sys_enter_' in event:
            th['enter'] = t
            th['first'] = t if th['first'] is None else th['first']
        elif 'sys_exit_' in event and th['enter'] is not None:
            th['inside'] += t - th['enter']
            th['calls'] += 1
            th['bytes'] += int(rest.strip(), 16) if rest.strip().startswith('0x') else 0
            th['enter'] = None
            th['end'] = t
        elif 'balance_dirty_pages' in event:
            pause = int(re.search(r' pause=(-?\d+)', rest).group(1))
            dirty = int(re.search(r' wb_dirty=(\d+)', rest).group(1)) * 4 // 1024
            th['pauses'].append('%.2f:%d:%d' % (t - t0, pause, dirty))
            th['rates'].add(int(re.search(r' dirty_ratelimit=(\d+)', rest).group(1)))
    print('wave %d: %.3f s from the first write to the last' % (i, max(th['end'] for th in threads.values()) - t0))
    for comm in sorted(threads):
        th = threads[comm]
        if th['first'] is None:
            continue
        paused = sum(int(p.split(':')[1]) for p in th['pauses'])
        print('  %s: writes from +%.3f to +%.3f s, %d calls, %.0f MB, %.0f ms inside them; %d pauses, %d ms '
              '(s:ms:dirty MiB %s; the device\'s dirty_ratelimit then, KB/s: %s)'
              % (comm, th['first'] - t0, th['end'] - t0, th['calls'], th['bytes'] / 1e6, th['inside'] * 1000,
                 len(th['pauses']), paused, ' '.join(th['pauses']), ','.join(map(str, sorted(th['rates']))) or '-'))
