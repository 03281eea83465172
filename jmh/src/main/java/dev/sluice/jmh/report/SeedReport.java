package dev.sluice.jmh.report;

import dev.sluice.core.input.DataSize;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;

/**
 * A Markdown report in the shape of the seed report (RAPIDS shuffle-writer benchmark, PR-13724): methodology,
 * environment, per size each strategy's time per map task and its improvement over the baseline, the crossover size,
 * and what the seed report could not show: amplification, write system calls per MiB, the kernel's written and
 * cancelled bytes, and the raw-write reference. Every figure comes from the JMH result; every sentence of analysis is
 * derived from those figures.
 */
final class SeedReport {
    static final String BASELINE = "per-batch";

    private final List<JmhResults.Row> rows;
    private final Environment env;
    private final String resultName;
    private final List<String> sizes = new ArrayList<>();
    private final List<String> strategies = new ArrayList<>();

    SeedReport(List<JmhResults.Row> rows, Environment env, String resultName) {
        this.rows = rows;
        this.env = env;
        this.resultName = resultName;
        Set<String> sizeSet = new LinkedHashSet<>();
        Set<String> strategySet = new LinkedHashSet<>();
        for (JmhResults.Row r : writes()) {
            sizeSet.add(r.param("size"));
            strategySet.add(r.param("strategy"));
        }
        for (DataSize d : DataSize.values()) {
            if (sizeSet.remove(d.label())) {
                sizes.add(d.label());
            }
        }
        sizes.addAll(sizeSet);
        for (String s : List.of(BASELINE, "buffered", "async")) {
            if (strategySet.remove(s)) {
                strategies.add(s);
            }
        }
        strategies.addAll(strategySet);
    }

    private List<JmhResults.Row> writes() {
        List<JmhResults.Row> out = new ArrayList<>();
        for (JmhResults.Row r : rows) {
            if (r.benchmarkClass().equals("ShuffleWriteBenchmark")) {
                out.add(r);
            }
        }
        return out;
    }

    private Optional<JmhResults.Row> write(String size, String strategy) {
        return writes().stream().filter(r -> r.param("size").equals(size) && r.param("strategy").equals(strategy)).findFirst();
    }

    private Optional<JmhResults.Row> raw(String size) {
        return rows.stream().filter(r -> r.benchmarkClass().equals("RawWriteBenchmark") && r.param("size").equals(size)).findFirst();
    }

    /** Writes report.md and its charts into {@code dir}; returns the report's path. */
    Path write(Path dir) throws IOException {
        if (writes().isEmpty()) {
            throw new IOException("no ShuffleWriteBenchmark results in " + resultName + ": nothing to report");
        }
        Files.createDirectories(dir);
        drawCharts(dir);
        Path report = dir.resolve("report.md");
        Files.writeString(report, markdown());
        return report;
    }

    private void drawCharts(Path dir) throws IOException {
        List<String> series = new ArrayList<>(strategies);
        boolean withRaw = sizes.stream().anyMatch(s -> raw(s).isPresent());
        if (withRaw) {
            series.add("raw write");
        }
        double[][] time = new double[series.size()][sizes.size()];
        double[][] timeErr = new double[series.size()][sizes.size()];
        double[][] amplification = new double[strategies.size()][sizes.size()];
        double[][] syscalls = new double[strategies.size()][sizes.size()];
        for (int i = 0; i < sizes.size(); i++) {
            for (int s = 0; s < strategies.size(); s++) {
                Optional<JmhResults.Row> r = write(sizes.get(i), strategies.get(s));
                time[s][i] = r.map(x -> x.score).orElse(Double.NaN);
                timeErr[s][i] = r.map(x -> x.error).orElse(Double.NaN);
                amplification[s][i] = r.map(x -> x.metric("io.amplification").orElse(Double.NaN)).orElse(Double.NaN);
                syscalls[s][i] = r.map(x -> syscallsPerMiB(x).orElse(Double.NaN)).orElse(Double.NaN);
            }
            if (withRaw) {
                Optional<JmhResults.Row> r = raw(sizes.get(i));
                time[series.size() - 1][i] = r.map(x -> x.score).orElse(Double.NaN);
                timeErr[series.size() - 1][i] = r.map(x -> x.error).orElse(Double.NaN);
            }
        }
        Charts.bars(dir.resolve("time.png"), "Time per map task (lower is better)", "ms per map task", sizes, series, time, timeErr);
        Charts.bars(dir.resolve("amplification.png"), "Bytes written per byte committed", "amplification", sizes, strategies, amplification, null);
        Charts.bars(dir.resolve("syscalls.png"), "Write system calls per MiB committed", "write calls / MiB", sizes, strategies, syscalls, null);
    }

    private static OptionalDouble syscallsPerMiB(JmhResults.Row r) {
        OptionalDouble proc = r.metric("proc.syscwPerMiB");
        return proc.isPresent() ? proc : r.metric("io.writeCallsPerMiB");
    }

    private String markdown() {
        StringWriter text = new StringWriter();
        PrintWriter out = new PrintWriter(text);
        JmhResults.Row any = writes().get(0);
        out.println("# Shuffle writer benchmark report");
        out.println();
        out.printf("Results: `%s`. Generated by `scripts/report.sh` from the JMH result; every figure below is read from it.%n%n", resultName);
        out.println("---");
        out.println();
        out.println("## 1. Executive summary");
        out.println();
        for (String line : summary()) {
            out.println("- " + line);
        }
        out.println();
        out.println("## 2. Test methodology");
        out.println();
        out.println("### 2.1 Environment");
        out.println();
        out.println("| component | value |");
        out.println("|---|---|");
        for (Map.Entry<String, String> e : env.values().entrySet()) {
            out.printf("| %s | %s |%n", e.getKey(), e.getValue());
        }
        out.println();
        out.println("### 2.2 Configuration");
        out.println();
        out.println("| parameter | value |");
        out.println("|---|---|");
        Map<String, String> common = new TreeMap<>(any.params);
        common.remove("size");
        common.remove("strategy");
        for (JmhResults.Row r : writes()) {
            common.entrySet().removeIf(e -> !e.getValue().equals(r.param(e.getKey())));
        }
        common.forEach((k, v) -> out.printf("| %s | %s |%n", k, v));
        out.printf("| measured runs per configuration | %d (single-shot: one map task per run, after warm-up) |%n", any.samples);
        out.println("| workload | one map task per run: every pre-partitioned record of the input through a fresh writer, then commit |");
        out.println();
        out.println("### 2.3 Configurations");
        out.println();
        out.println("| config | input per map task | committed bytes per map task |");
        out.println("|---|---|---|");
        for (String size : sizes) {
            double committed = write(size, BASELINE).or(() -> write(size, strategies.get(0)))
                    .map(r -> r.metric("io.committedBytes").orElse(Double.NaN)).orElse(Double.NaN);
            out.printf(Locale.ROOT, "| %s | %s | %s |%n", size, inputSize(size), mb(committed));
        }
        out.println();
        out.println("## 3. Results");
        out.println();
        out.println("### 3.1 Charts");
        out.println();
        out.println("![Time per map task](time.png)");
        out.println();
        out.println("Whiskers: JMH's 99.9% error of each mean (cut at 0). With three measured runs that interval is wide: "
                + "it is Student's t for 2 degrees of freedom, about 31.6 times the standard error.");
        out.println();
        out.println("![Amplification](amplification.png)");
        out.println();
        out.println("![Write system calls per MiB](syscalls.png)");
        out.println();
        out.println("### 3.2 Time per map task (mean of the measured runs, ± JMH's 99.9% error)");
        out.println();
        out.print("| config |");
        strategies.forEach(s -> out.print(" " + s + " |"));
        out.println(" raw write |");
        out.print("|---|");
        strategies.forEach(s -> out.print("---|"));
        out.println("---|");
        for (String size : sizes) {
            out.print("| " + size + " |");
            for (String s : strategies) {
                out.print(" " + write(size, s).map(SeedReport::ms).orElse("n/a") + " |");
            }
            out.println(" " + raw(size).map(SeedReport::ms).orElse("n/a") + " |");
        }
        out.println();
        if (strategies.contains(BASELINE)) {
            out.println("### 3.3 Improvement over the baseline (" + BASELINE + "), in % of its time");
            out.println();
            out.print("| config |");
            strategies.stream().filter(s -> !s.equals(BASELINE)).forEach(s -> out.print(" " + s + " |"));
            out.println();
            out.print("|---|");
            strategies.stream().filter(s -> !s.equals(BASELINE)).forEach(s -> out.print("---|"));
            out.println();
            for (String size : sizes) {
                out.print("| " + size + " |");
                for (String s : strategies) {
                    if (!s.equals(BASELINE)) {
                        out.print(" " + improvement(size, s).map(SeedReport::percent).orElse("n/a")
                                + (significant(size, s) ? " **" : everyRun(size, s) != 0 ? " *" : "") + " |");
                    }
                }
                out.println();
            }
            out.println();
            out.println("Positive: faster than the baseline. ** marks a difference larger than both 99.9% errors together;"
                    + " * one where every measured run of the strategy was faster (or every one slower) than every run of"
                    + " the baseline, which with three runs each is weaker evidence but not nothing.");
            out.println();
        }
        out.println("### 3.4 I/O per map task");
        out.println();
        out.println("| config | strategy | amplification | write calls | write syscalls / MiB | write_bytes / MiB | cancelled_write_bytes / MiB | files created | spilled | peak memory |");
        out.println("|---|---|---|---|---|---|---|---|---|---|");
        for (String size : sizes) {
            for (String s : strategies) {
                write(size, s).ifPresent(r -> out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
                        size, s, num(r.metric("io.amplification"), "%.2f"), num(r.metric("io.writeCalls"), "%.0f"),
                        num(syscallsPerMiB(r), "%.2f"), mibPerMiB(r.metric("proc.write_bytesPerMiB")),
                        mibPerMiB(r.metric("proc.cancelled_write_bytesPerMiB")), num(r.metric("io.filesCreated"), "%.0f"),
                        mb(r.metric("io.spilledBytes").orElse(Double.NaN)), mib(r.metric("io.peakBufferedBytes").orElse(Double.NaN))));
            }
        }
        out.println();
        out.println("write_bytes: bytes the process dirtied for storage; cancelled_write_bytes: dirty bytes dropped by deletes before"
                + " writeback (temp files that never reached the disk). Both in MiB per MiB committed, from /proc/self/io.");
        out.println();
        out.println("### 3.5 Against the raw-write reference");
        out.println();
        out.println("| config | raw write (4 MiB calls) | MB/s | " + String.join(" | ", strategies) + " |");
        out.println("|---|---|---|" + "---|".repeat(strategies.size()));
        for (String size : sizes) {
            Optional<JmhResults.Row> raw = raw(size);
            out.print("| " + size + " | " + raw.map(SeedReport::ms).orElse("n/a") + " | "
                    + raw.map(r -> String.format(Locale.ROOT, "%.0f", r.metric("io.committedBytes").orElse(Double.NaN) / 1e6 / (r.score / 1000))).orElse("n/a") + " |");
            for (String s : strategies) {
                out.print(" " + write(size, s).flatMap(w -> raw.map(r -> String.format(Locale.ROOT, "%.1fx raw", w.score / r.score))).orElse("n/a") + " |");
            }
            out.println();
        }
        out.println();
        out.println("## 4. Analysis");
        out.println();
        out.println("### 4.1 Crossover");
        out.println();
        out.println(crossover());
        out.println();
        out.println("### 4.2 Where the bytes went");
        out.println();
        for (String line : bytesAnalysis()) {
            out.println("- " + line);
        }
        out.println();
        out.println("---");
        out.println();
        out.println("Page-cache writeback on this machine: dirty_background_ratio " + env.get("vm.dirty_background_ratio")
                + "%, dirty_ratio " + env.get("vm.dirty_ratio") + "% of " + env.get("memory")
                + ". Until dirty data passes those limits, writes land in memory and the disk is not the bottleneck.");
        out.flush();
        return text.toString();
    }

    private List<String> summary() {
        List<String> lines = new ArrayList<>();
        for (String size : sizes) {
            String fastest = null;
            double best = Double.POSITIVE_INFINITY;
            for (String s : strategies) {
                Optional<JmhResults.Row> r = write(size, s);
                if (r.isPresent() && r.get().score < best) {
                    best = r.get().score;
                    fastest = s;
                }
            }
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%s: fastest is %s (%.0f ms per map task)", size, fastest, best));
            for (String s : strategies) {
                if (!s.equals(BASELINE)) {
                    improvement(size, s).ifPresent(v -> line.append(String.format(Locale.ROOT, "; %s %s vs %s (%s)", s, percent(v), BASELINE,
                            evidence(size, s))));
                }
            }
            lines.add(line.toString());
        }
        lines.add(crossover());
        return lines;
    }

    /**
     * The smallest size from which a strategy beats the baseline in every measured run, at that size and all larger
     * ones. JMH's 99.9% intervals from three runs are too wide to separate anything here, so the crossover is read
     * from the runs themselves, and said so.
     */
    private String crossover() {
        if (!strategies.contains(BASELINE) || strategies.size() < 2) {
            return "No crossover to find: the baseline (" + BASELINE + ") or a second strategy is missing.";
        }
        StringBuilder out = new StringBuilder();
        for (String s : strategies) {
            if (s.equals(BASELINE)) {
                continue;
            }
            String from = null;
            for (int i = sizes.size() - 1; i >= 0 && everyRun(sizes.get(i), s) > 0; i--) {
                from = sizes.get(i);
            }
            if (out.length() > 0) {
                out.append(' ');
            }
            if (from == null) {
                out.append(String.format("%s does not beat %s in every run at the largest size measured, so it has no crossover in this run.", s, BASELINE));
            } else if (from.equals(sizes.get(0))) {
                out.append(String.format("%s beats %s in every measured run at every size, from %s up: no crossover inside this range.", s, BASELINE, from));
            } else {
                out.append(String.format("%s beats %s in every measured run from %s up (the crossover), and not at the size below.", s, BASELINE, from));
            }
        }
        out.append(" (Every-run comparison; see 3.3 for which differences also exceed JMH's 99.9% errors.)");
        return out.toString();
    }

    /** +1 if every run of {@code strategy} was faster than every run of the baseline, -1 if every one slower, else 0. */
    private int everyRun(String size, String strategy) {
        Optional<JmhResults.Row> base = write(size, BASELINE);
        Optional<JmhResults.Row> other = write(size, strategy);
        if (base.isEmpty() || other.isEmpty() || base.get().runs.isEmpty() || other.get().runs.isEmpty()) {
            return 0;
        }
        double baseMin = base.get().runs.stream().mapToDouble(Double::doubleValue).min().getAsDouble();
        double baseMax = base.get().runs.stream().mapToDouble(Double::doubleValue).max().getAsDouble();
        double otherMin = other.get().runs.stream().mapToDouble(Double::doubleValue).min().getAsDouble();
        double otherMax = other.get().runs.stream().mapToDouble(Double::doubleValue).max().getAsDouble();
        return otherMax < baseMin ? 1 : otherMin > baseMax ? -1 : 0;
    }

    private String evidence(String size, String strategy) {
        if (significant(size, strategy)) {
            return "beyond both errors";
        }
        int every = everyRun(size, strategy);
        return every > 0 ? "faster in every run, within error" : every < 0 ? "slower in every run, within error"
                : "runs overlap, within error";
    }

    private List<String> bytesAnalysis() {
        List<String> lines = new ArrayList<>();
        for (String s : strategies) {
            double minAmp = Double.POSITIVE_INFINITY;
            double maxAmp = 0;
            double cancelled = 0;
            double written = 0;
            for (String size : sizes) {
                Optional<JmhResults.Row> r = write(size, s);
                if (r.isEmpty()) {
                    continue;
                }
                double amp = r.get().metric("io.amplification").orElse(Double.NaN);
                minAmp = Math.min(minAmp, amp);
                maxAmp = Math.max(maxAmp, amp);
                cancelled += r.get().metric("proc.cancelled_write_bytesPerMiB").orElse(0);
                written += r.get().metric("proc.write_bytesPerMiB").orElse(0);
            }
            lines.add(String.format(Locale.ROOT, "%s: amplification %.2f to %.2f across sizes; of the bytes it dirtied, %.0f%% were"
                    + " cancelled before writeback (deleted while still in the page cache).", s, minAmp, maxAmp,
                    written == 0 ? 0 : 100 * cancelled / written));
        }
        return lines;
    }

    private Optional<Double> improvement(String size, String strategy) {
        Optional<JmhResults.Row> base = write(size, BASELINE);
        Optional<JmhResults.Row> other = write(size, strategy);
        if (base.isEmpty() || other.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of((base.get().score - other.get().score) / base.get().score * 100);
    }

    /** Whether the two means differ by more than both errors together. */
    private boolean significant(String size, String strategy) {
        Optional<JmhResults.Row> base = write(size, BASELINE);
        Optional<JmhResults.Row> other = write(size, strategy);
        if (base.isEmpty() || other.isEmpty() || Double.isNaN(base.get().error) || Double.isNaN(other.get().error)) {
            return false;
        }
        return Math.abs(base.get().score - other.get().score) > base.get().error + other.get().error;
    }

    private static String inputSize(String size) {
        for (DataSize d : DataSize.values()) {
            if (d.label().equals(size)) {
                return mb(d.bytes());
            }
        }
        return "?";
    }

    private static String ms(JmhResults.Row r) {
        return Double.isNaN(r.error) ? String.format(Locale.ROOT, "%.0f ms", r.score)
                : String.format(Locale.ROOT, "%.0f ± %.0f ms", r.score, r.error);
    }

    private static String percent(double v) {
        return String.format(Locale.ROOT, "%+.1f%%", v);
    }

    private static String mb(double bytes) {
        if (Double.isNaN(bytes)) {
            return "n/a";
        }
        return bytes >= 1e9 ? String.format(Locale.ROOT, "%.2f GB", bytes / 1e9) : String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    }

    private static String mib(double bytes) {
        return Double.isNaN(bytes) ? "n/a" : String.format(Locale.ROOT, "%.1f MiB", bytes / (1 << 20));
    }

    private static String num(OptionalDouble v, String format) {
        return v.isPresent() ? String.format(Locale.ROOT, format, v.getAsDouble()) : "n/a";
    }

    private static String mibPerMiB(OptionalDouble v) {
        return v.isPresent() ? String.format(Locale.ROOT, "%.2f", v.getAsDouble() / (1 << 20)) : "n/a";
    }
}
