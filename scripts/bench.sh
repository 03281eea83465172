#!/usr/bin/env bash
# scripts/bench.sh: runs the benchmark matrix, one configuration at a time, with progress; writes the JMH JSON, the
# environment and a report. Builds the benchmarks jar first if it is missing.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
  cat <<'USAGE'
Usage: scripts/bench.sh [--preset smoke|quick|seed] [--strategies a,b] [--sizes a,b] [--scale F]
                        [--codec C] [--jdk PATH] [--out DIR]

Runs ShuffleWriteBenchmark for every size x strategy, and RawWriteBenchmark (the sequential-write reference) for
every size, 200 partitions, one JMH fork per configuration, and prints progress (configuration i of n, elapsed,
estimated time left). Writes into DIR:
  jmh-result.json    every configuration's JMH result, merged (-rf json, with ShuffleIoProfiler's metrics)
  environment.json   JDK, cores, memory, kernel, file system and free space, /proc/sys/vm/dirty_*, git commit
  runs/, logs/       each configuration's own result and JMH output
  report/report.md   the report (scripts/report.sh), with its PNG charts
and ends by printing the report's path.

Presets (what --strategies and --sizes override):
  smoke   tiny; per-batch, buffered, async; no warm-up, 1 measured run (under 2 minutes)
  quick   small; per-batch, buffered, async; 1 warm-up, 2 measured runs
  seed    small, medium, large, xlarge, xxlarge; per-batch, buffered, async; 1 warm-up, 3 measured runs
          (the seed report's matrix)

Options:
  --preset NAME       smoke, quick or seed (default: quick)
  --strategies LIST   comma-separated strategy specs, NAME or NAME:key=value:... (see: scripts/sluice strategies)
  --sizes LIST        comma-separated sizes: tiny, small, medium, large, xlarge, xxlarge
  --scale F           multiply every size by F > 0 (default: 1)
  --codec C           none, lz4-frame or lz4-block (default: lz4-frame)
  --jdk PATH          JDK to build and run with (default: JAVA_HOME, else java on PATH)
  --out DIR           output directory, created; must not hold a previous run (default: jmh/target/bench/PRESET-TIME)
  --help              print this help
Exit status: 0 done, 1 a benchmark failed, 2 bad arguments.
USAGE
}

preset=quick strategies="" sizes="" scale=1 codec=lz4-frame jdk="" out=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --help|-h) usage; exit 0 ;;
    --preset|--strategies|--sizes|--scale|--codec|--jdk|--out)
      [[ $# -ge 2 && -n "$2" ]] || die "$1 needs a value"
      case "$1" in
        --preset) preset="$2" ;; --strategies) strategies="$2" ;; --sizes) sizes="$2" ;;
        --scale) scale="$2" ;; --codec) codec="$2" ;; --jdk) jdk="$2" ;; --out) out="$2" ;;
      esac
      shift 2 ;;
    *) die "unknown argument '$1': allowed are --preset, --strategies, --sizes, --scale, --codec, --jdk, --out, --help" ;;
  esac
done

case "$preset" in
  smoke) default_sizes=tiny; warmups=0; runs=1 ;;
  quick) default_sizes=small; warmups=1; runs=2 ;;
  seed) default_sizes=small,medium,large,xlarge,xxlarge; warmups=1; runs=3 ;;
  *) die "invalid --preset '$preset': allowed is smoke, quick or seed" ;;
esac
sizes="${sizes:-$default_sizes}"
strategies="${strategies:-per-batch,buffered,async}"
[[ "$scale" =~ ^[0-9]*\.?[0-9]+$ ]] && awk "BEGIN{exit !($scale > 0)}" || die "invalid --scale '$scale': allowed is a number > 0"
case "$codec" in none|lz4-frame|lz4-block) ;; *) die "invalid --codec '$codec': allowed is none, lz4-frame or lz4-block" ;; esac
IFS=, read -r -a size_list <<< "$sizes"
for s in "${size_list[@]}"; do
  case "$s" in tiny|small|medium|large|xlarge|xxlarge) ;; *) die "invalid size '$s' in --sizes: allowed are tiny, small, medium, large, xlarge, xxlarge" ;; esac
done
IFS=, read -r -a strategy_list <<< "$strategies"
[[ ${#strategy_list[@]} -gt 0 ]] || die "--strategies is empty"
out="${out:-$root/jmh/target/bench/$preset-$(date +%Y%m%d-%H%M%S)}"
[[ ! -e "$out/jmh-result.json" ]] || die "invalid --out '$out': it already holds a run (jmh-result.json)"
[[ ! -e "$out" || -d "$out" ]] || die "invalid --out '$out': it exists and is not a directory"
find_java "$jdk"

if [[ ! -f "$jar" ]]; then
  echo "$script: $jar is missing; building it (mvn -B -q -DskipTests package)" >&2
  (cd "$root" && JAVA_HOME="${jdk:-${JAVA_HOME:-}}" mvn -B -q -DskipTests package) || { echo "$script: build failed" >&2; exit 1; }
fi
check_strategies "${strategy_list[@]}"

# The code measured is the code at the start.
commit="$(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)"
if [[ -n "$(git -C "$root" status --porcelain 2>/dev/null | grep -v '^??' || true)" ]]; then commit="$commit (with uncommitted changes)"; fi

mkdir -p "$out/runs" "$out/logs"
out="$(cd "$out" && pwd)"
weight() { case "$1" in tiny) echo 4;; small) echo 402;; medium) echo 803;; large) echo 1180;; xlarge) echo 1570;; xxlarge) echo 1950;; esac; }
configs=()
for size in "${size_list[@]}"; do
  configs+=("$size raw")
  for strategy in "${strategy_list[@]}"; do configs+=("$size $strategy"); done
done
total_weight=0
for c in "${configs[@]}"; do total_weight=$((total_weight + $(weight "${c%% *}"))); done

n=${#configs[@]} i=0 done_weight=0 started=$(date +%s)
echo "$script: $n configurations ($preset: sizes $sizes; strategies $strategies; scale $scale; codec $codec) into $out" >&2
for c in "${configs[@]}"; do
  i=$((i + 1)); size="${c%% *}"; strategy="${c#* }"
  name="$(printf '%02d' "$i")-$size-${strategy//[:=]/_}"
  common=(-p "size=$size" -p "scale=$scale" -p "codec=$codec" -p partitions=200 -wi "$warmups" -i "$runs" -f 1 -foe true
          -prof dev.sluice.jmh.ShuffleIoProfiler -rf json -rff "$out/runs/$name.json")
  if [[ "$strategy" == raw ]]; then
    args=(RawWriteBenchmark "${common[@]}")
  else
    args=(ShuffleWriteBenchmark -p "strategy=$strategy" "${common[@]}")
  fi
  elapsed=$(( $(date +%s) - started ))
  if [[ $done_weight -gt 0 ]]; then
    left="about $(( elapsed * (total_weight - done_weight) / done_weight ))s left"
  else
    left="time left unknown yet"
  fi
  echo "$script: [$i/$n] $size $strategy (elapsed ${elapsed}s, $left)" >&2
  t0=$(date +%s)
  if ! "$java" -jar "$jar" "${args[@]}" > "$out/logs/$name.log" 2>&1; then
    echo "$script: configuration $size $strategy failed; the end of $out/logs/$name.log:" >&2
    tail -n 30 "$out/logs/$name.log" >&2
    exit 1
  fi
  done_weight=$((done_weight + $(weight "$size")))
  echo "$script: [$i/$n] done in $(( $(date +%s) - t0 ))s" >&2
done

report_tools merge "$out/jmh-result.json" "$out"/runs/*.json
jdk_text="$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.vm.version = //p' | head -1)"
jdk_text="$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.vendor = //p' | head -1) $jdk_text"
report_tools env "$out/environment.json" "${TMPDIR:-/tmp}" "$jdk_text" "$commit"
report="$(report_tools report "$out/jmh-result.json" "$out/report" "$out/environment.json")"
echo "$script: finished $n configurations in $(( $(date +%s) - started ))s" >&2
echo "$report"
