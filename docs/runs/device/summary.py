#!/usr/bin/env python3
"""The device checks of docs/runs/device/run.sh as tables: summary.py OUT (reads OUT/fluid.jsonl, OUT/legacy.jsonl)."""
import json
import sys
from pathlib import Path


def rows(path):
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.exists() else []


def table(checks):
    print("| rate | cache | bytes / cache | writers | pace per writer | native ms | measured ms | fluid model ms "
          "| measured / model | throttle sleeps (of 150 ms or more) | sleep ms, median [min, max] "
          "| dirty_ratelimit KB/s, median [min, max] |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for c in checks:
        t = c.get("throttle") or {}
        s = t.get("sleepMillis") or {}
        r = t.get("dirtyRatelimitKBps") or {}
        ratio = c["measuredMillis"] / c["fluidMillis"] if c["fluidMillis"] else float("nan")
        pace = f'{c["paceBytesPerSecond"] / 1e6:.1f} MB/s' if c["paceBytesPerSecond"] else "none"
        spread = lambda d: f'{d["median"]} [{d["min"]}, {d["max"]}]' if d else "-"
        print(f'| {c["rateBytesPerSecond"] / 1e6:.1f} MB/s | {c["dirtyBytes"] / 2**20:.0f} MiB '
              f'| {c["totalBytes"] / c["dirtyBytes"]:.1f} | {c["writers"]} | {pace} '
              f'| {c["nativeMillis"] if c["nativeMillis"] is not None else "-"} | {c["measuredMillis"]:.0f} '
              f'| {c["fluidMillis"]:.0f} | {ratio:.3f} | {t.get("sleeps", "-")} ({t.get("sleepsOf150MsOrMore", "-")}) '
              f'| {spread(s)} | {spread(r)} |')
    print()


out = Path(sys.argv[1])
for mechanism in ("fluid", "legacy"):
    checks = rows(out / f"{mechanism}.jsonl")
    if checks:
        within = sum(1 for c in checks if c["withinTolerance"])
        print(f"### {mechanism}: {within} of {len(checks)} within 10% of the model\n")
        table(checks)
