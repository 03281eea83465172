#!/usr/bin/env python3
"""The spread of each strategy's waves in the paired rounds of scripts/bench.sh runs: per strategy, the sd of the
natural log of its wave times (a share of the mean for small values: 0.10 is about 10%), and the mean and sd of its
system and user CPU time per wave. Usage: spread.py LABEL=RUN_DIR ... (each RUN_DIR as bench.sh wrote it, its runs/
chunks; or a committed run's folder with only its merged jmh-result.json, one result per strategy and size)."""
import glob
import json
import math
import os
import sys


def waves(run_dir):
    """{(size, strategy): {metric: [values over measured waves]}} from the run's PairedWaveBenchmark chunks."""
    out = {}
    if not os.path.isdir(os.path.join(run_dir, "runs")):
        return merged(os.path.join(run_dir, "jmh-result.json"))
    for path in sorted(glob.glob(os.path.join(run_dir, "runs", "*-c*.json"))):
        if os.path.getsize(path) == 0:  # a chunk still running
            continue
        for r in json.load(open(path)):
            if not r["benchmark"].endswith("PairedWaveBenchmark.wave"):
                continue
            strategies = r["params"]["strategies"].split("+")
            size = r["params"]["size"]
            index = [int(v) for fork in r["secondaryMetrics"]["pair.strategy"]["rawData"] for v in fork]
            series = {"wave": [v for fork in r["primaryMetric"]["rawData"] for v in fork]}
            for key in ("cpu.systemMillis", "cpu.userMillis", "cpu.minorFaults"):
                series[key] = [v for fork in r["secondaryMetrics"][key]["rawData"] for v in fork]
            for i, s in enumerate(index):
                d = out.setdefault((size, strategies[s]), {})
                for key, values in series.items():
                    d.setdefault(key, []).append(values[i])
    return out


def merged(path):
    """The same from a run's merged jmh-result.json: a result per strategy and size, a fork per chunk."""
    out = {}
    for r in json.load(open(path)):
        if not r["benchmark"].endswith("PairedWaveBenchmark.wave"):
            continue
        d = out.setdefault((r["params"]["size"], r["params"]["strategy"]), {})
        d["wave"] = [v for fork in r["primaryMetric"]["rawData"] for v in fork]
        for key in ("cpu.systemMillis", "cpu.userMillis", "cpu.minorFaults"):
            d[key] = [v for fork in r["secondaryMetrics"][key]["rawData"] for v in fork]
    return out


def mean(xs):
    return sum(xs) / len(xs)


def sd(xs):
    m = mean(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1)) if len(xs) > 1 else float("nan")


def main(args):
    print("| run | size | strategy | waves | sd of ln(wave) | wave (ms) | system CPU (ms) | user CPU (ms) | minor faults |")
    print("|---|---|---|---|---|---|---|---|---|")
    for arg in args:
        label, run_dir = arg.split("=", 1)
        for (size, strategy), d in waves(run_dir).items():
            w = d["wave"]
            print("| %s | %s | %s | %d | %.3f | %.0f ± %.0f | %.0f ± %.0f | %.0f ± %.0f | %.0f |" % (
                label, size, strategy, len(w), sd([math.log(x) for x in w]), mean(w), sd(w),
                mean(d["cpu.systemMillis"]), sd(d["cpu.systemMillis"]), mean(d["cpu.userMillis"]),
                sd(d["cpu.userMillis"]), mean(d["cpu.minorFaults"])))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
