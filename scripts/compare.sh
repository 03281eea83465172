#!/usr/bin/env bash
# scripts/compare.sh: two JMH results, benchmark by benchmark, with a verdict; fails on a significant slowdown.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
  cat <<'USAGE'
Usage: scripts/compare.sh BASE.json NEW.json [--threshold 5%]

For every benchmark and parameter set in both results: the ratio NEW/BASE of the geometric means of their measured
waves with a 99% interval from Welch's t on the logarithms of both runs' waves (two waves or more each), and a
verdict: faster, SLOWER (the whole interval beyond the threshold), slower within threshold, no significant
difference, or no error (one wave: a result with a single measured wave has none). Where both results are paired
runs (scripts/bench.sh --paired, the default of its seed preset), a strategy also gets its ratio to its run's
baseline in each run (the geometric mean of its pairs, 99% interval) and the change of that ratio from BASE to NEW
with a 99% Welch interval on the pairs' logarithms; drift of the machine between the runs, or another machine,
cancels in it, so it decides that strategy's verdict. Benchmarks in only one of the files are listed as such; two
results that share no benchmark and parameter set are refused (exit status 2), naming what each holds and the
parameters whose values differ.

Options:
  --threshold P   how much slower counts, in percent (default: 5%)
  --help          print this help
Exit status: 0 nothing slower beyond the threshold, 1 some benchmark is, 2 bad arguments or nothing to compare.
USAGE
}

files=() threshold=5%
while [[ $# -gt 0 ]]; do
  case "$1" in
    --help|-h) usage; exit 0 ;;
    --threshold) [[ $# -ge 2 && -n "$2" ]] || die "--threshold needs a value"; threshold="$2"; shift 2 ;;
    -*) die "unknown option '$1': allowed are --threshold and --help" ;;
    *) files+=("$1"); shift ;;
  esac
done
[[ ${#files[@]} -eq 2 ]] || die "need BASE.json and NEW.json (got ${#files[@]} files)"
for f in "${files[@]}"; do [[ -f "$f" ]] || die "invalid result '$f': no such file"; done
[[ "$threshold" =~ ^([0-9]*\.?[0-9]+)%?$ ]] || die "invalid --threshold '$threshold': allowed is a percentage such as 5% or 2.5"
fraction="$(awk "BEGIN{print ${BASH_REMATCH[1]} / 100}")"
find_java
require_report_jar
report_tools compare "${files[0]}" "${files[1]}" "$fraction"
