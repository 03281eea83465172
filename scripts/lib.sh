# Shared by the scripts in this directory: the repository root, Java, the jars, errors.
# Sourced, not run.

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jar="$root/jmh/target/benchmarks.jar"
# The offline tools: the reports (dev.sluice.report.ReportTools).
report_jar="$root/report/target/sluice-report.jar"
# The benchmark run (dev.sluice.bench: its plan and runner), run beside benchmarks.jar.
bench_jar="$root/bench/target/sluice-bench.jar"
script="$(basename "$0")"

# Usage errors: a message naming what was wrong, exit status 2.
# The Spark lines Sluice's manager is built and tested for (BenchOptions.SPARK_LINES), each with the module whose
# build holds its class paths (target/classpath-*.txt); the newest is the scripts' default.
declare -A spark_modules=([4.1.1]=spark [4.2.0]=spark-4.2)
spark_newest=4.2.0

die() {
  echo "$script: $*" >&2
  echo "$script: see '$script --help'" >&2
  exit 2
}

# The java to run: --jdk PATH if given (sets $java_home), else JAVA_HOME, else PATH.
find_java() {
  local home="${1:-${JAVA_HOME:-}}"
  if [[ -n "$home" ]]; then
    java="$home/bin/java"
    [[ -x "$java" ]] || die "no executable $java (--jdk / JAVA_HOME must be a JDK directory)"
  else
    java="$(command -v java || true)"
    [[ -n "$java" ]] || die "no java on PATH; set JAVA_HOME or pass --jdk PATH (Java 17 or newer)"
  fi
}

# The flags a command-line JVM needs, in the array java_flags: Arrow needs java.nio opened to it; from JDK 24 on,
# Arrow's and Netty's use of sun.misc.Unsafe must be allowed. The list is dev.sluice.core.host.JvmFlags's, which the
# scripts cannot call without a JVM start of their own; core's JvmFlagsTest fails when the two differ. Call after
# find_java.
set_java_flags() {
  java_flags=(--add-opens=java.base/java.nio=ALL-UNNAMED)
  local feature
  feature="$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')"
  if [[ "${feature%%.*}" -ge 24 ]]; then
    java_flags+=(--sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED)
  fi
}

# Fails unless the benchmarks jar exists, saying how to build it.
require_jar() {
  if [[ ! -f "$jar" ]]; then
    echo "$script: $jar is missing; build it with: mvn -B -DskipTests package" >&2
    exit 2
  fi
}

# Fails unless the benchmark run's jar exists, saying how to build it.
require_bench_jar() {
  if [[ ! -f "$bench_jar" ]]; then
    echo "$script: $bench_jar is missing; build it with: mvn -B -DskipTests package" >&2
    exit 2
  fi
}

# Fails unless the report tools' jar exists, saying how to build it.
require_report_jar() {
  if [[ ! -f "$report_jar" ]]; then
    echo "$script: $report_jar is missing; build it with: mvn -B -DskipTests package" >&2
    exit 2
  fi
}

# The class path of a Sluice jar ($1) followed by the entries of SLUICE_CLASSPATH: jars or class directories of
# third-party strategies (found by ServiceLoader through their META-INF/services entry) and what they need, separated
# by ':' as in a Java class path. Sets $cp; refuses an entry that does not exist, naming it (exit status 2). Forks of
# JMH inherit the class path.
class_path() {
  cp="$1"
  local entries entry
  IFS=: read -r -a entries <<< "${SLUICE_CLASSPATH:-}"
  for entry in "${entries[@]}"; do
    [[ -n "$entry" ]] || continue
    [[ -e "${entry%/\*}" ]] || die "invalid SLUICE_CLASSPATH entry '$entry': no such file or directory; allowed are jars and class directories (or DIR/* for every jar in DIR), separated by ':'"
    cp="$cp:$entry"
  done
}

# Prints the end of a failed run's log ($1) on stderr: as many lines as bench.sh's runner prints of a failed fork's
# log (dev.sluice.bench.JmhInvoker.TAIL; ScriptsIT checks that the two agree).
tail_lines=30
print_log_tail() {
  tail -n "$tail_lines" "$1" >&2 || true
}

# The report tools take no strategy, so they need their own jar alone.
report_tools() {
  "$java" -Djava.awt.headless=true "-Dsluice.script=$script" -cp "$report_jar" dev.sluice.report.ReportTools "$@"
}

