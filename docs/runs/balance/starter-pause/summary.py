#!/usr/bin/env python3
"""The runs of docs/runs/balance/starter-pause/run.sh as tables: summary.py OUT."""
import json
import statistics
import sys
from pathlib import Path

out = Path(sys.argv[1])
print("| pause | size | strategy | wave ms, mean +- sd | system CPU ms a wave | other processes' CPU ms a wave "
      "| buffered over per-batch [99% paired] |")
print("|---|---|---|---|---|---|---|")
for run in sorted(out.glob("pause-*/"), key=lambda p: int(p.name.split("-")[1])):
    ms = run.name.split("-")[1]
    results = json.loads((run / "jmh-result.json").read_text())
    comparisons = json.loads((run / "comparisons.json").read_text())
    for r in results:
        if not r["benchmark"].endswith("PairedWaveBenchmark.wave"):
            continue
        size, strategy = r["params"]["size"], r["params"]["strategy"]
        raw = [x for fork in r["primaryMetric"]["rawData"] for x in fork]
        sec = r["secondaryMetrics"]
        other = sec.get("cpu.othersMillis", {}).get("score")
        system = sec.get("cpu.systemMillis", {}).get("score")
        verdict = ""
        for c in comparisons:
            if c["size"] == size and c["strategy"] == strategy and c["baseline"] == "per-batch" \
                    and c["figure"] == "mapper stage":
                verdict = f'{100 * (1 - c["ratio"]):+.1f}% [{100 * (1 - c["ciHigh"]):+.1f}, ' \
                          f'{100 * (1 - c["ciLow"]):+.1f}]'
        print(f'| {ms} ms | {size} | {strategy} | {statistics.mean(raw):.0f} +- {statistics.stdev(raw):.0f} '
              f'| {system:.0f} | {other:.0f} | {verdict} |' if other is not None else
              f'| {ms} ms | {size} | {strategy} | {statistics.mean(raw):.0f} +- {statistics.stdev(raw):.0f} '
              f'| {system:.0f} | - | {verdict} |')
