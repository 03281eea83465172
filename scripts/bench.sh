#!/usr/bin/env bash
# scripts/bench.sh: runs a benchmark matrix, one configuration per JMH fork, with progress; writes the JMH JSON, the
# environment and a report. A launcher: the plan, the runs, their chunks, the stopping rule and the merge of results
# are dev.sluice.bench.BenchRunner's (in sluice-bench.jar), which prints the usage on --help. Builds the jars if they
# are missing. Runs java -cp sluice-bench.jar:benchmarks.jar[:SLUICE_CLASSPATH], so that third-party strategies can be
# named; JMH's forks get benchmarks.jar[:SLUICE_CLASSPATH].
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# --jdk picks the java that builds and runs; the runner takes every other option.
jdk="" args=("$@")
for ((i = 0; i < ${#args[@]}; i += 2)); do
  case "${args[i]}" in
    --help|-h) break ;;
    --jdk) [[ -n "${args[i + 1]:-}" ]] || die "--jdk needs a value"; jdk="${args[i + 1]}" ;;
  esac
done
find_java "$jdk"
set_java_flags # the runner measures a balance's task rate itself (--producer auto), with Arrow
class_path "$bench_jar:$jar"
if [[ ! -f "$jar" || ! -f "$bench_jar" ]]; then
  echo "$script: $jar or $bench_jar is missing; building them (mvn -B -q -DskipTests package)" >&2
  (cd "$root" && JAVA_HOME="${jdk:-${JAVA_HOME:-}}" mvn -B -q -DskipTests package) || { echo "$script: build failed" >&2; exit 1; }
fi
SLUICE_ROOT="$root" exec "$java" "${java_flags[@]}" -cp "$cp" dev.sluice.bench.BenchRunner "$@"
