#!/usr/bin/env bash
# scripts/report.sh: a Markdown report with PNG charts from a JMH result of the shuffle-write matrix.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
  cat <<'USAGE'
Usage: scripts/report.sh RESULT.json [--out DIR]

Writes DIR/report.md in the seed report's shape: its three tables (query total time, mapper stage time, sum of
mapper task durations), each strategy's improvement over per-batch: for a paired run (scripts/bench.sh's default for
seed) pair by pair with its 99% interval (Student's t on the logarithms of the pairs' ratios; significant: the whole
interval on one side of 0) and Welch's p on the waves as a cross-check, otherwise with its error and Welch's t-test on
the measured waves (significant: p < 0.01); the crossover size; for a paired run every ratio to per-batch and to
ideal with its interval, how many are within 5% of their ratio, why each size stopped (stops.json beside RESULT.json)
and the pairs' ratios where an interval stayed wide; every measured wave and the machine's noise floor, the I/O per task
(amplification, write calls per MiB, /proc write_bytes vs cancelled_write_bytes, peak Dirty, memory, the gate), the
raw-write reference, what the counters say, and the environment. Every error (99.9%) and test comes from the
measured waves, as JMH computes them, from two waves on; a configuration of one wave says "no error: one wave".
Clocks, each named in the report: the mapper stage is JMH's score; query total is that plus the reduce side's read
after each wave, wave by wave (so never shorter than the mapper stage); the sum of task durations is the tasks' own.
Charts: DIR/query.png, DIR/mapper.png, DIR/tasks.png (whiskers: the 99.9% errors, where there is one),
DIR/amplification.png, DIR/syscalls.png, DIR/disk.png, and for a paired run DIR/improvement.png (the improvements
with their intervals). The environment is read from environment.json beside
RESULT.json (scripts/bench.sh writes it). Prints the report's path.

Options:
  --out DIR   where to write (default: a directory named report beside RESULT.json)
  --help      print this help
Exit status: 0 done, 1 the report could not be made, 2 bad arguments.
USAGE
}

result="" out=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --help|-h) usage; exit 0 ;;
    --out) [[ $# -ge 2 && -n "$2" ]] || die "--out needs a value"; out="$2"; shift 2 ;;
    -*) die "unknown option '$1': allowed are --out and --help" ;;
    *) [[ -z "$result" ]] || die "one RESULT.json only (got '$result' and '$1')"; result="$1"; shift ;;
  esac
done
[[ -n "$result" ]] || die "RESULT.json is missing"
[[ -f "$result" ]] || die "invalid RESULT.json '$result': no such file"
out="${out:-$(dirname "$result")/report}"
[[ ! -e "$out" || -d "$out" ]] || die "invalid --out '$out': it exists and is not a directory"
find_java
require_report_jar
report_tools report "$result" "$out" "$(dirname "$result")/environment.json"
