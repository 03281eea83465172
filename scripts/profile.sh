#!/usr/bin/env bash
# scripts/profile.sh: async-profiler flame graphs of one map-task configuration.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
  cat <<'USAGE'
Usage: scripts/profile.sh --strategy S --size Z [--tasks N] [--scale F] [--partitions N] [--codec C] [--memory-limit SIZE]
                          [--iterations N] [--warmup-records quarter|full] [--event cpu|alloc|wall|lock|page-faults]
                          [--device SPEC] [--prefault true|false] [--out DIR]

Runs ShuffleWriteBenchmark for one strategy and size (a wave of --tasks map tasks, --partitions, round robin,
--codec, the seed's batches per task; 1 warm-up and --iterations measured waves, 1 by default)
under async-profiler, whose library comes from the tools.profiler:async-profiler Maven jar (unpacked by the build).
Only the measured waves are profiled (dev.sluice.jmh.profile.WaveProfiler): not input generation, the flush before each
wave, the reduce-side read, verification or removal. Writes TRIAL-flame.html, TRIAL-flame-reverse.html,
TRIAL-collapsed.txt (one line per stack with its samples) and TRIAL-jmh.log (JMH's output) into the output
directory, TRIAL being strategy-size-Ntasks with every character but letters, digits, '.', '_' and '-' made '_'
(e.g. async_skipMerge_true-small-1tasks). It replaces those four files if they exist and touches nothing else there.
It prints the frames with the most samples of their own and the share of samples in zeroing, page faults,
allocation, compression, copies, write calls and GC (ReportTools shares; a sample counts in every category its
stack passes through), with a warning naming the sample count where a profile holds fewer than 1000 (more measured
waves or a bigger size give more), and ends with the paths of the three profile files.

Options:
  --strategy S   writer strategy spec, NAME or NAME:key=value:... (see: scripts/sluice strategies)
  --size Z       input per map task, by name (the names: scripts/sluice write --help)
  --tasks N      map tasks written at once (default: 1)
  --scale F      a factor > 0, or seed-equivalent (default: 1)
  --partitions N reduce partitions (>= 1) (default: 200)
  --codec C      none, lz4-frame, lz4-block (Spark's lz4) or zstd (Spark's zstd) (default: lz4-block)
  --memory-limit SIZE  the executor's host memory limit: none (default), a byte size, or machine (this machine's
                 memory); async:skipMerge=true needs one (without one it warns and merges)
  --iterations N measured waves (default: 1)
  --warmup-records R  quarter (default): the warm-up wave writes every record cut to its first quarter; full: the
                 records themselves, so that reused buffers (pool=true) are in the state measured waves find
  --event E      cpu, alloc, wall, lock or page-faults (every page fault, with the stack that touched the
                 page) (default: cpu)
  --device SPEC  where the files go: native (default), emulated:write=RATE:dirty=SIZE, or a profile such as
                 seed-ssd (see: scripts/sluice device profiles; needs root)
  --prefault B   true (default): before each wave, outside its time, touch the memory the last wave took, as
                 scripts/bench.sh does (docs/limits.md); false: not
  --out DIR      a directory, created if missing, where the files go (default: jmh/target/profile/STRATEGY-SIZE-EVENT)
  --help         print this help

Environment:
  SLUICE_CLASSPATH  jars or class directories of third-party strategies, separated by ':' as a Java class path,
                 put after benchmarks.jar (java -cp ... dev.sluice.jmh.SluiceBenchmarks), so that --strategy takes
                 their names. An entry that does not exist is refused (exit status 2)
Exit status: 0 done, 1 the run failed, 2 bad arguments.
USAGE
}

strategy="" size="" event=cpu out="" tasks=1 scale=1 partitions=200 limit=none iterations=1 codec=lz4-block warmup=quarter device=native prefault=true
while [[ $# -gt 0 ]]; do
  case "$1" in
    --help|-h) usage; exit 0 ;;
    --strategy|--size|--event|--out|--tasks|--scale|--partitions|--memory-limit|--iterations|--codec|--warmup-records|--device|--prefault)
      [[ $# -ge 2 && -n "$2" ]] || die "$1 needs a value"
      case "$1" in
        --strategy) strategy="$2" ;; --size) size="$2" ;; --event) event="$2" ;; --out) out="$2" ;;
        --tasks) tasks="$2" ;; --scale) scale="$2" ;; --partitions) partitions="$2" ;; --memory-limit) limit="$2" ;; --iterations) iterations="$2" ;;
        --codec) codec="$2" ;; --warmup-records) warmup="$2" ;; --device) device="$2" ;;
        --prefault) prefault="$2" ;;
      esac
      shift 2 ;;
    *) die "unknown argument '$1': allowed are --strategy, --size, --tasks, --scale, --partitions, --codec, --memory-limit, --iterations, --warmup-records, --event, --device, --prefault, --out, --help" ;;
  esac
done
[[ -n "$strategy" ]] || die "--strategy is required"
[[ -n "$size" ]] || die "--size is required"
case "$event" in cpu|alloc|wall|lock|page-faults) ;; *) die "invalid --event '$event': allowed are cpu, alloc, wall, lock, page-faults" ;; esac
[[ "$prefault" == true || "$prefault" == false ]] || die "invalid --prefault '$prefault': allowed are true and false"
[[ "$iterations" =~ ^[1-9][0-9]*$ ]] || die "invalid --iterations '$iterations': allowed is an integer >= 1"
[[ "$limit" == none || "$limit" == machine || "$limit" =~ ^[0-9]+(\.[0-9]+)?[kKmMgGtT]?([iI]?[bB])?$ ]] \
  || die "invalid --memory-limit '$limit': allowed is none, machine or a byte size (examples: 4096, 32k, 64m, 1.5g)"
[[ -z "$out" || ! -e "$out" || -d "$out" ]] || die "invalid --out '$out': it exists and is not a directory; allowed is a directory, created if missing"
find_java
require_jar
require_bench_jar
class_path "$bench_jar:$jar"
plan_cp="$cp"
class_path "$jar"
# The strategy, size, task count, scale and iterations as the benchmarks parse them: BenchPlan refuses (exit 2) what
# the fork would, before anything runs.
problem="$("$java" -cp "$plan_cp" dev.sluice.bench.BenchPlan --preset smoke --sizes "$size" --strategies "$strategy" \
  --tasks "$tasks" --scale "$scale" --partitions "$partitions" --iterations "$iterations" --codec "$codec" --warmup-records "$warmup" --paired off \
  --device "$device" 2>&1 >/dev/null)" || { problem="${problem//--strategies/--strategy}"; die "${problem//--sizes/--size}"; }
lib="$root/jmh/target/async-profiler/linux-x64/libasyncProfiler.so"
[[ -f "$lib" ]] || { echo "$script: $lib is missing; build with: mvn -B -DskipTests package" >&2; exit 2; }
out="${out:-$root/jmh/target/profile/${strategy//[:=]/_}-$size-$event}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
# The files of this run, named by WaveProfiler from the parameters as JMH gets them: the only ones replaced.
trial="$("$java" -cp "$jar" dev.sluice.jmh.profile.WaveProfiler "$strategy" "$size" "$tasks")"
files=("$out/$trial-flame.html" "$out/$trial-flame-reverse.html" "$out/$trial-collapsed.txt")
log="$out/$trial-jmh.log"
echo "$script: profiling $strategy at $size ($event) into $out" >&2
rm -f "${files[@]}"
if ! "$java" -cp "$cp" dev.sluice.jmh.SluiceBenchmarks ShuffleWriteBenchmark -p "strategy=$strategy" -p "size=$size" \
    -p "tasks=$tasks" -p "scale=$scale" -p "partitions=$partitions" -p "codec=$codec" -p "warmUp=$warmup" -p "memoryLimit=$limit" \
    -p "device=$device" -wi 1 -i "$iterations" -f 1 -foe true \
    -jvmArgsAppend "-XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints -Dsluice.prefault=$prefault" \
    -prof "dev.sluice.jmh.profile.WaveProfiler:libPath=$lib;event=$event;dir=$out" > "$log" 2>&1; then
  echo "$script: the run failed; the end of $log:" >&2
  print_log_tail "$log"
  exit 1
fi
for f in "${files[@]}"; do
  [[ -s "$f" ]] || { echo "$script: async-profiler wrote no ${f##*/}; see $log" >&2; exit 1; }
done
# The frames with the most samples of their own, then where the samples go by mechanism (zeroing, page faults,
# allocation, compression, copies, write calls, GC).
report_tools shares "${files[2]}" >&2
printf '%s\n' "${files[@]}"
