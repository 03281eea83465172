#!/usr/bin/env bash
# scripts/bench.sh: runs a benchmark matrix, one configuration per JMH fork, with progress; writes the JMH JSON, the
# environment and a report. The matrix itself (sizes, tasks, scale, strategies, iterations) comes from
# dev.sluice.report.BenchPlan, so that it is decided by the code the benchmarks run. Builds the jar if it is missing.
# Runs java -cp benchmarks.jar[:SLUICE_CLASSPATH] dev.sluice.jmh.SluiceBenchmarks (the jar's Main-Class), so that
# third-party strategies can be named; JMH's forks inherit the class path.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
  cat <<'USAGE'
Usage: scripts/bench.sh [--preset smoke|quick|seed|tuning|balance] [--strategies a,b] [--sizes a,b]
                        [--scale F|seed-equivalent] [--tasks N] [--codec C] [--sync true|false] [--warmups N]
                        [--warmup-records quarter|full] [--iterations N] [--paired rounds|forks|off]
                        [--budget TIME|none] [--device SPEC] [--producer none|gpu:RATE|cpu:RATE] [--jdk PATH]
                        [--out DIR]

Measures every size's strategies (one operation is one wave: N map tasks written at once on one executor), and
RawWriteBenchmark (the storage's reference: N sequential writes of the data files' size, as the size's first
strategy committed them) for every size, and prints progress (configuration i of n, elapsed, time left). Paired (the
default of smoke, quick and seed), a size's strategies take turns wave by wave in one JMH fork (PairedWaveBenchmark,
--paired rounds) or fork by fork (ShuffleWriteBenchmark, --paired forks), and each strategy's time over the
baseline's (the first strategy) and over ideal's is taken pair by pair, between waves of the same round: slow drift of
the machine cancels in the ratio. With a budget, a size gets chunks of rounds until every ratio's 99% interval is
within 5% of it or its share of the budget is spent. Unpaired (--paired off), each strategy runs in a fork of its own.
Before every measured wave the previous outputs are gone, dirty data is flushed (sync) and the run waits until the
page cache's Dirty + Writeback are back near idle. Writes into DIR:
  jmh-result.json    every configuration's JMH result, merged (with ShuffleIoProfiler's figures); a paired size as
                     one result per strategy (parameter pairing), each chunk a fork of it
  comparisons.json   paired runs: per size, every strategy against the baseline and against ideal, for the mapper
                     stage and the query total: the geometric mean of the pairs' ratios, its 99% interval (Student's
                     t on the logarithms), the pairs and each pair's ratio
  stops.json         paired runs: per size, its pairs, chunks, time, and why it stopped (reached, budget, rounds)
  environment.json   JDK, cores, memory, kernel, file system and free space, /proc/sys/vm/dirty_*, git commit
  plan.txt           the matrix as run, with why its tasks and scale were chosen
  runs/, logs/       each JMH run's own result and output (a paired size's chunks: NN-SIZE-cK, NN-SIZE-cK-sJ)
  timing.tsv         each JMH run's wall time in seconds
  verified/          digests of outputs verified row by row, so that the other strategies of a size, whose outputs
                     must hold the same bytes, are verified by digest instead of decoding every row again
  report/report.md   the report (scripts/report.sh), with its PNG charts; for the balance preset
                     report/balance.md, the crossover map, with a chart per balance
and ends by printing the report's path.

Presets (what the other options override):
  smoke   tiny; 1 task; per-batch, buffered, async, async:skipMerge=true and ideal, paired in 2 rounds (under 2
          minutes)
  quick   small; one task per processor at the seed-equivalent scale; the smoke's strategies, 1 warm-up wave each and
          3 paired rounds
  seed    the seed report's experiment on this machine: small..xxlarge with the seed's 1 to 5 batches per task, one
          task per processor at the seed-equivalent scale, 200 partitions, round robin, lz4 (Spark's), the smoke's
          strategies paired in rounds, 1 warm-up wave each, a first chunk of 3 rounds, then chunks until every 99%
          interval is within 5% or the size's share of a 30-minute budget is spent
  tuning  docs/tuning.md's ablation: small and xxlarge (1 and 5 batches per task) at scale 1, one task per
          processor; ideal (the pipeline's limit), per-batch, buffered, buffered with each of Sluice's options alone
          (merge=gather, pool=true, partial=chunked, recordBuffer=direct), partial=records with recordBuffer=direct
          (which it needs), consolidated-best; unpaired (a pool must stay warm from wave to wave);
          1 warm-up wave of
          the full records and 5 measured waves per configuration (run it once per --codec)
  balance the crossover map (docs/balance.md): small, large and xxlarge, one task per processor, per-batch, buffered,
          async and consolidated-best, on emulated devices of 25, 50 and 100 MB/s per task slot with 0.25 and 1 GB
          of dirty cache per slot, and on native storage; at scale 0.05 with the dirty caches scaled alike
          (similarity); 1 warm-up and 3 measured waves per configuration, unpaired; needs root and loop devices
async:skipMerge=true runs with memoryLimit=machine (paired: -p memoryLimit=none+...+machine, one per strategy):
upstream's skip-merge needs a memory limit, the fork reads this
machine's memory, and the result records "machine", so that compare.sh matches results of machines of any size.
quick and seed first measure the machine's own spread over the same iterations (NoiseFloorBenchmark: the same
lz4 work in every iteration, no I/O), which the report sets against every configuration's error.

Options:
  --preset NAME       smoke, quick, seed or tuning (default: quick)
  --strategies LIST   comma-separated strategy specs, NAME or NAME:key=value:... (see: scripts/sluice strategies)
  --sizes LIST        comma-separated sizes: tiny, small, medium, large, xlarge, xxlarge
  --scale F           a factor > 0, or seed-equivalent (tasks x size / this machine's memory as the seed's)
  --tasks N           map tasks written at once (default: the preset's)
  --codec C           none, lz4-frame, lz4-block (Spark's lz4) or zstd (Spark's zstd) (default: lz4-block)
  --sync B            true: every commit forces its files to the device, and so does the raw write, so that the
                      disk is in every wave (default: false, as Spark)
  --warmups N         warm-up waves per configuration (default: the preset's); a warm-up wave is not verified
  --warmup-records R  quarter: a warm-up wave writes every record cut to its first quarter (the same code, a fraction
                      of the time); full: the records themselves, so that buffers a strategy reuses (pool=true) reach
                      the state measured waves find (default: the preset's; full for tuning, else quarter)
  --iterations N      measured waves per configuration; paired, rounds (one wave of each strategy), and with a budget
                      the first chunk's rounds, 2 at least (default: the preset's)
  --paired DESIGN     rounds: a size's strategies take turns wave by wave in one fork; forks: in alternating forks,
                      a chunk one fork per strategy; off: each strategy in its own fork, unpaired (default: the
                      preset's: rounds for smoke, quick and seed, off for tuning and balance)
  --budget TIME       paired only: the run's time budget (1800, 1800s, 30m, 1h), shared among the configurations by
                      their weight; a size adds chunks of rounds until every interval is within 5% of its ratio or
                      its share is spent; none: the --iterations rounds once (default: the preset's: 30m for seed,
                      none for the others)
  --device SPEC       where every configuration's files go (JMH -p device): native (default), an emulated device
                      (emulated:write=RATE:dirty=SIZE, per-slot:write=RATE:dirty=SIZE) or a profile such as seed-ssd,
                      made for each configuration and torn down after it (scripts/sluice device profiles lists them;
                      needs root); on an emulated device the seed preset's default scale is 0.25
                      A balance (seed-ssd, or a spec with :produce=RATE) sets the device relative to this harness's
                      own task rate, measured in the first fork that needs it (per-batch at small on native storage,
                      a few seconds) and cached per machine, build and configuration (scripts/sluice device show)
  --producer P        what makes each batch on the task's thread before it is written (JMH -p producer): none (the
                      inputs are made before the wave; default), gpu:RATE (the thread waits per batch, as on a GPU
                      scan) or cpu:RATE (it works on its core), RATE input bytes per second (docs/balance.md)
  --jdk PATH          JDK to build and run with (default: JAVA_HOME, else java on PATH)
  --out DIR           output directory, created; must not hold a previous run (default: jmh/target/bench/PRESET-TIME)
  --help              print this help

Every JMH run gets -foe true, so that a failing benchmark fails the run (JMH alone exits 0 after one).

Environment:
  SLUICE_CLASSPATH    jars or class directories of third-party strategies, separated by ':' as a Java class path;
                      put after benchmarks.jar for the plan and every fork, so that --strategies takes their names.
                      An entry that does not exist is refused (exit status 2)
Exit status: 0 done, 1 a benchmark failed, 2 bad arguments.
USAGE
}

preset=quick jdk="" out="" plan_args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --help|-h) usage; exit 0 ;;
    --preset|--strategies|--sizes|--scale|--tasks|--codec|--sync|--warmups|--warmup-records|--iterations|--paired|--budget|--device|--producer|--jdk|--out)
      [[ $# -ge 2 && -n "$2" ]] || die "$1 needs a value"
      case "$1" in
        --preset) preset="$2"; plan_args+=("$1" "$2") ;;
        --jdk) jdk="$2" ;;
        --out) out="$2" ;;
        *) plan_args+=("$1" "$2") ;;
      esac
      shift 2 ;;
    *) die "unknown argument '$1': allowed are --preset, --strategies, --sizes, --scale, --tasks, --codec, --sync, --warmups, --warmup-records, --iterations, --paired, --budget, --device, --producer, --jdk, --out, --help" ;;
  esac
done
find_java "$jdk"
class_path "$report_jar"
plan_cp="$cp"
class_path "$jar"

if [[ ! -f "$jar" || ! -f "$report_jar" ]]; then
  echo "$script: $jar or $report_jar is missing; building them (mvn -B -q -DskipTests package)" >&2
  (cd "$root" && JAVA_HOME="${jdk:-${JAVA_HOME:-}}" mvn -B -q -DskipTests package) || { echo "$script: build failed" >&2; exit 1; }
fi
plan_text="$("$java" -cp "$plan_cp" dev.sluice.report.BenchPlan "${plan_args[@]}" 2>&1)" || die "${plan_text}"
out="${out:-$root/jmh/target/bench/$preset-$(date +%Y%m%d-%H%M%S)}"
[[ ! -e "$out/jmh-result.json" ]] || die "invalid --out '$out': it already holds a run (jmh-result.json)"
[[ ! -e "$out" || -d "$out" ]] || die "invalid --out '$out': it exists and is not a directory"
# An interrupted run leaves its configurations' results in runs/, and the merge takes every runs/*.json: results of
# another plan would join this run's.
if compgen -G "$out/runs/*.json" > /dev/null; then
  die "invalid --out '$out': it holds an interrupted run's results (runs/*.json); remove that run or choose another --out"
fi

# The code measured is the code at the start.
commit="$(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)"
if [[ -n "$(git -C "$root" status --porcelain 2>/dev/null | grep -v '^??' || true)" ]]; then commit="$commit (with uncommitted changes)"; fi

mkdir -p "$out/runs" "$out/logs"
out="$(cd "$out" && pwd)"
printf '%s\n' "$plan_text" > "$out/plan.txt"
mapfile -t configs < <(grep -v '^#' "$out/plan.txt")
# The plan's machine-readable line: the paired design and the budget in seconds (or none).
design="$(sed -n 's/^#% paired=\([a-z]*\) budget=\([a-z0-9]*\)$/\1/p' "$out/plan.txt")"
budget="$(sed -n 's/^#% paired=\([a-z]*\) budget=\([a-z0-9]*\)$/\2/p' "$out/plan.txt")"
total_weight=0
for c in "${configs[@]}"; do IFS='|' read -r _ weight _ <<< "$c"; total_weight=$((total_weight + weight)); done

# One JMH run: its result into runs/FILE.json, its output into logs/FILE.log, its wall time into timing.tsv.
run_jmh() {
  local file="$1" jargs="$2" t0 t1
  t0=$(date +%s%N)
  # shellcheck disable=SC2086 # the plan's arguments are words without spaces
  # verified/: a size's first strategy verifies its outputs row by row and records their digests; the others' equal
  # bytes are then verified by digest (dev.sluice.core.verify.VerifiedDigests).
  if ! "$java" "-Dsluice.verifiedDigests=$out/verified" -cp "$cp" dev.sluice.jmh.SluiceBenchmarks $jargs -rf json \
      -rff "$out/runs/$file.json" > "$out/logs/$file.log" 2>&1; then
    echo "$script: ${file#*-} failed; the end of $out/logs/$file.log:" >&2
    tail -n 30 "$out/logs/$file.log" >&2
    exit 1
  fi
  t1=$(date +%s%N)
  printf '%s\t%d.%03d\n' "$file" $(( (t1 - t0) / 1000000000 )) $(( (t1 - t0) / 1000000 % 1000 )) >> "$out/timing.tsv"
}

n=${#configs[@]} i=0 done_weight=0 started=$(date +%s)
echo "$script: $n configurations into $out" >&2
echo "$script: $(head -n 1 "$out/plan.txt" | sed 's/^# //')" >&2
if [[ "$design" != off ]]; then echo "$script: $(sed -n 2p "$out/plan.txt" | sed 's/^# //')" >&2; fi
for c in "${configs[@]}"; do
  i=$((i + 1))
  IFS='|' read -r name weight args <<< "$c"
  run="$(printf '%02d' "$i")-$name"
  elapsed=$(( $(date +%s) - started ))
  if [[ "$budget" != none ]]; then
    left="$(( budget > elapsed ? budget - elapsed : 0 ))s of the ${budget}s budget left"
  elif [[ $done_weight -gt 0 ]]; then
    left="about $(( elapsed * (total_weight - done_weight) / done_weight ))s left"
  else
    left="time left unknown yet"
  fi
  echo "$script: [$i/$n] $name (elapsed ${elapsed}s, $left)" >&2
  # An argument @KEY:NAME is configuration NAME's result KEY (e.g. the raw write's size is the data file's size).
  while [[ "$args" =~ @([A-Za-z.]+):([A-Za-z0-9_.-]+) ]]; do
    ref="${BASH_REMATCH[0]}" key="${BASH_REMATCH[1]}" from="${BASH_REMATCH[2]}"
    value="$(report_tools metric-of "$out" "$from" "$key")" || { echo "$script: $ref: $value" >&2; exit 1; }
    args="${args//"$ref"/$value}"
    echo "$script:   $ref = $value" >&2
  done
  t0=$(date +%s)
  if [[ "$args" == PairedWaveBenchmark* ]]; then
    # A paired size: chunks of rounds as the report tools decide (ReportTools paired-next), each run here; with a
    # budget, within the size's share of what is left of it, by weight.
    seconds_left=none
    if [[ "$budget" != none ]]; then
      left_now=$(( budget - ($(date +%s) - started) ))
      share=$(( left_now > 0 ? left_now * weight / (total_weight - done_weight) : 0 ))
      echo "$script:   share of the budget: ${share}s" >&2
    fi
    while :; do
      spent=$(( $(date +%s) - t0 ))
      [[ "$budget" == none ]] || seconds_left=$(( share - spent ))
      next="$(report_tools paired-next "$out" "$run" "$design" "$seconds_left" "$spent")" \
        || { echo "$script: $name: $next" >&2; exit 1; }
      if [[ "$next" == stop\|* ]]; then
        echo "$script: [$i/$n] $name stopped: ${next#stop|}" >&2
        break
      fi
      while IFS='|' read -r file jargs; do
        [[ -n "$file" ]] || continue
        rounds="$(sed -n 's/.* -i \([0-9]*\).*/\1/p' <<< "$jargs")"
        echo "$script:   ${file#"$run"-}: ${jargs%% *} -i $rounds" >&2
        run_jmh "$file" "$jargs"
      done <<< "$next"
    done
  else
    run_jmh "$run" "$args"
  fi
  done_weight=$((done_weight + weight))
  echo "$script: [$i/$n] done in $(( $(date +%s) - t0 ))s" >&2
done

report_tools results "$out"
jdk_text="$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.vm.version = //p' | head -1)"
jdk_text="$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.vendor = //p' | head -1) $jdk_text"
report_tools env "$out/environment.json" "${TMPDIR:-/tmp}" "$jdk_text" "$commit" "$out/jmh-result.json"
if [[ "$preset" == balance ]]; then
  report="$(report_tools balance "$out/jmh-result.json" "$out/report")"
else
  report="$(report_tools report "$out/jmh-result.json" "$out/report" "$out/environment.json")"
fi
echo "$script: finished $n configurations in $(( $(date +%s) - started ))s" >&2
echo "$report"
