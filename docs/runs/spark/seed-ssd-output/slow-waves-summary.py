#!/usr/bin/env python3
"""Sums up a slow-waves.sh OUT: per-batch's runs, the kernel's dirty throttle, ext4's unlinks and jbd2's commits
(perf.txt), and where the map tasks' and the writer threads' wall-clock samples went (wall.collapsed, 10 ms each).
Usage: slow-waves-summary.py OUT"""
import collections
import json
import re
import sys

out = sys.argv[1]
print("per-batch's runs (mapper stage, shuffle write time, sum of tasks, mapper GC; ms):")
for line in open(f"{out}/spark-bench.jsonl"):
    try:
        d = json.loads(line)
    except ValueError:
        continue
    if "writer" in d:
        print(f"  {'warm-up' if d['warmup'] else 'iter'} {d['iteration']}: {d['mapperStageMillis']}, "
              f"{d['shuffleWriteTimeMillis']}, {d['sumTaskMillis']}, {d['mapperGcMillis']}")

events = []
for line in open(f"{out}/perf.txt"):
    m = re.match(r"\s*(.+?)\s+(\d+)/(\d+)\s+([\d.]+):\s+(\S+):\s(.*)", line)
    if m:
        comm, _, tid, t, event, rest = m.groups()
        events.append((float(t), comm, int(tid), event, rest))
# The device's own rate-limit training writes from threads named sluice-device-*: not the runs'.
runs = [e for e in events if not e[1].startswith("sluice-device")]
throttled = [e for e in runs if e[3] == "writeback:balance_dirty_pages"]
pauses = [int(dict(re.findall(r"(\w+)=(-?\d+)", e[4]))["pause"]) for e in throttled]
print(f"dirty throttle (writeback:balance_dirty_pages) outside the device's training: {len(throttled)} events, "
      f"{sum(pauses)} ms of pauses")
entered, unlinks = {}, []
for t, comm, tid, event, rest in events:
    if event == "ext4:ext4_unlink_enter":
        entered[tid] = t
    elif event == "ext4:ext4_unlink_exit" and tid in entered:
        unlinks.append(t - entered.pop(tid))
print(f"ext4 unlinks: {len(unlinks)}, {sum(unlinks) * 1000:.0f} ms in all, {sum(1 for u in unlinks if u > 0.01)} over "
      f"10 ms, the longest {max(unlinks) * 1000:.1f} ms (the directory entry's part; the inode is evicted after)")
commits = [dict(re.findall(r"(\w+)=(0x[0-9a-f]+|\d+)", e[4])) for e in runs if e[3] == "jbd2:jbd2_run_stats"]
slow = [c for c in commits if sum(int(c[k], 16) for k in ("locked", "flushing", "logging")) > 100]
print(f"jbd2 commits: {len(commits)}, {len(slow)} with locked + flushing + logging over 100 ms")

samples = collections.Counter()
compression = collections.Counter()
for line in open(f"{out}/wall.collapsed"):
    stack, n = line.rsplit(" ", 1)
    frames = stack.split(";")
    n = int(n)
    if frames[0].startswith("[Executor task launch") and any("dev/sluice" in f for f in frames):
        for key in ("StrategyShuffleWriter.write", "RowBatches.add", "PendingWork.awaitIdle", "CountedStorage.delete"):
            if any(key in f for f in frames):
                samples["map task: " + key] += n
    if any("Lz4Block.writeBlock" in f for f in frames):
        java = any("JavaSafe" in f or "LZ4ByteBufferUtils" in f or "SafeUtils" in f for f in frames)
        compression["lz4 in Java (lz4-java's fallback)" if java else "lz4 native or other"] += n
print("wall-clock samples (10 ms each, all runs, both map tasks):")
for key, n in sorted(samples.items()):
    print(f"  {key}: {n}")
for key, n in sorted(compression.items()):
    print(f"  writer threads in the lz4-block piece, {key}: {n}")
