package dev.sluice.report;

import dev.sluice.core.run.BenchmarkName;
import dev.sluice.core.run.Metric;
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
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * A Markdown report in the shape of the seed report (RAPIDS shuffle-writer benchmark, PR-13724): its three tables
 * (query total time, mapper stage time, sum of mapper task durations) with the improvement over the baseline in %,
 * the crossover size, and what the seed could not show: why, from the counters (bytes dirtied against bytes cancelled
 * per MiB, write calls per MiB, the page cache's peak dirty data, memory), against the storage's raw-write reference.
 * Every figure is read from the JMH result with its own 99.9% error; every comparison gives Welch's t-test on the
 * measured waves and counts only where p < {@value #SIGNIFICANCE}. A figure whose error passes 5% of it is flagged.
 */
final class SeedReport {
    static final String BASELINE = "per-batch";
    /** The precision aimed at, and the one past which a figure is flagged. */
    static final double TARGET = 0.03;
    static final double FLAG = 0.05;
    /** A difference counts where Welch's t-test on the measured waves gives a p-value below this. */
    static final double SIGNIFICANCE = 0.01;

    private final List<JmhResults.Row> rows;
    private final Environment env;
    private final String resultName;
    private final List<String> sizes = new ArrayList<>();
    private final List<String> strategies = new ArrayList<>();
    /** The paired comparisons' section, where the run paired its strategies; else null. */
    private final PairedSection paired;

    /**
     * A figure of a row: its measured waves, each on the clock {@link #clock} names, and their mean. Its error and its
     * comparisons (Welch's test) come from those waves: none from one wave.
     */
    private static final class Figure {
        final String name;
        final String title;
        /** Which clock the figure's waves are timed on, in words for the report. */
        final String clock;
        final Function<JmhResults.Row, Double> value;
        final Function<JmhResults.Row, List<Double>> runs;

        Figure(String name, String title, String clock, Function<JmhResults.Row, Double> value,
               Function<JmhResults.Row, List<Double>> runs) {
            this.name = name;
            this.title = title;
            this.clock = clock;
            this.value = value;
            this.runs = runs;
        }

        /** The 99.9% error of the mean of the row's waves; NaN with one wave. */
        double error(JmhResults.Row r) {
            return JmhResults.error(runs.apply(r));
        }

        int waves(JmhResults.Row r) {
            return runs.apply(r).size();
        }
    }

    /** JMH's own clock: the time of the benchmark method, one measured wave each. */
    private static final Figure MAPPER = new Figure("mapper stage time",
            "Mapper stage time (the wave: every task written and committed)",
            "JMH's clock (the score: the benchmark method's time, one wave per measured iteration)",
            r -> r.score, r -> r.runs);
    /**
     * The mapper stage's waves on JMH's clock plus the reduce side's read after each (timed on its own), wave by
     * wave, so that query total is never shorter than the mapper stage it contains. (The secondary metric
     * {@code query.totalMillis} adds the read to the wave's own inner clock instead, which starts when the tasks are
     * released and leaves out what JMH's clock also times around them.)
     */
    static final Metric READ = Metric.QUERY_READ_MILLIS;
    private static final Figure QUERY = new Figure("query total time",
            "Query total time (the wave plus the reduce side's read of every partition)",
            "JMH's clock for the wave (the mapper stage's figure) plus the reduce side's read, timed on its own right "
                    + "after each wave (`query.readMillis`), added wave by wave",
            SeedReport::mean, SeedReport::queryRuns);
    private static final Figure TASK_SUM = new Figure("sum of mapper task durations",
            "Sum of all mapper task durations",
            "each map task's own clock, from the wave's start to its commit, summed over the wave's tasks "
                    + "(`wave.sumTaskMillis`)",
            r -> r.metric(Metric.WAVE_SUM_TASK_MILLIS).orElse(Double.NaN), r -> r.metricRuns(Metric.WAVE_SUM_TASK_MILLIS));

    /** Each measured wave's query total: its mapper stage (JMH's clock) plus its read; none if the read is missing. */
    static List<Double> queryRuns(JmhResults.Row r) {
        List<Double> reads = r.metricRuns(READ);
        if (reads.size() != r.runs.size()) {
            return List.of();
        }
        List<Double> total = new ArrayList<>();
        for (int i = 0; i < reads.size(); i++) {
            total.add(r.runs.get(i) + reads.get(i));
        }
        return total;
    }

    private static double mean(JmhResults.Row r) {
        return queryRuns(r).stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    }

    SeedReport(List<JmhResults.Row> rows, Environment env, String resultName) {
        this(rows, env, resultName, null);
    }

    /** @param stops the run's stops.json (why each paired configuration stopped), or null */
    SeedReport(List<JmhResults.Row> rows, Environment env, String resultName, com.fasterxml.jackson.databind.JsonNode stops) {
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
        for (String s : BenchPlan.STRATEGIES) {
            if (strategySet.remove(s)) {
                strategies.add(s);
            }
        }
        strategies.addAll(strategySet);
        paired = writes().stream().anyMatch(r -> !r.pairing().isEmpty())
                ? new PairedSection(writes(), sizes, strategies, BASELINE, stops) : null;
    }

    /** Whether the run's waves were paired: its rows carry the pairing parameter. */
    private boolean paired() {
        return paired != null;
    }

    /** The paired section's number: after the three figures' tables. */
    private static final String PAIRED_SECTION = "3.5";

    private List<JmhResults.Row> writes() {
        List<JmhResults.Row> out = new ArrayList<>();
        for (JmhResults.Row r : rows) {
            if (r.isWave()) {
                out.add(r);
            }
        }
        return out;
    }

    private Optional<JmhResults.Row> write(String size, String strategy) {
        return writes().stream().filter(r -> r.param("size").equals(size) && r.param("strategy").equals(strategy))
                .findFirst();
    }

    private Optional<JmhResults.Row> raw(String size) {
        return rows.stream().filter(r -> r.is(BenchmarkName.RAW_WRITE) && r.param("size").equals(size))
                .findFirst();
    }

    /** The machine's own spread over the same iterations, where the run measured it. */
    private Optional<JmhResults.Row> noiseFloor() {
        return rows.stream().filter(r -> r.is(BenchmarkName.NOISE_FLOOR)).findFirst();
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

    /** The series of the time charts: the strategies, then the raw write where the run has it. */
    private List<String> chartSeries() {
        List<String> series = new ArrayList<>(strategies);
        if (sizes.stream().anyMatch(s -> raw(s).isPresent())) {
            series.add("raw write");
        }
        return series;
    }

    /** A time chart's bars in seconds: [0] values, [1] errors (NaN: one wave), series by sizes. */
    private double[][][] chartData(Figure figure) {
        List<String> series = chartSeries();
        double[][] values = new double[series.size()][sizes.size()];
        double[][] errors = new double[series.size()][sizes.size()];
        for (int i = 0; i < sizes.size(); i++) {
            for (int s = 0; s < series.size(); s++) {
                Optional<JmhResults.Row> r = s < strategies.size() ? write(sizes.get(i), strategies.get(s))
                        : raw(sizes.get(i));
                values[s][i] = r.map(figure.value).orElse(Double.NaN) / 1000;
                errors[s][i] = r.map(figure::error).orElse(Double.NaN) / 1000;
            }
        }
        return new double[][][] {values, errors};
    }

    private void drawCharts(Path dir) throws IOException {
        for (Figure figure : List.of(QUERY, MAPPER, TASK_SUM)) {
            double[][][] data = chartData(figure);
            Charts.bars(dir.resolve(chartName(figure)), figure.title + " (lower is better)",
                    "seconds (whiskers: 99.9% error, where there is one)", sizes, chartSeries(), data[0], data[1]);
        }
        double[][] amplification = new double[strategies.size()][sizes.size()];
        double[][] calls = new double[strategies.size()][sizes.size()];
        double[][] diskBytes = new double[strategies.size()][sizes.size()];
        for (int i = 0; i < sizes.size(); i++) {
            for (int s = 0; s < strategies.size(); s++) {
                Optional<JmhResults.Row> r = write(sizes.get(i), strategies.get(s));
                amplification[s][i] = metric(r, Metric.IO_AMPLIFICATION);
                calls[s][i] = metric(r, Metric.IO_WRITE_CALLS_PER_MIB);
                diskBytes[s][i] = (metric(r, Metric.PROC_WRITE_BYTES_PER_MIB) - metric(r, Metric.PROC_CANCELLED_WRITE_BYTES_PER_MIB))
                        / (1 << 20);
            }
        }
        Charts.bars(dir.resolve("amplification.png"), "Bytes written per byte committed", "amplification", sizes,
                strategies, amplification, null);
        if (paired()) {
            paired.chart(dir.resolve("improvement.png"), MAPPER.runs);
        }
        Charts.bars(dir.resolve("syscalls.png"), "Write calls per MiB committed", "write calls / MiB", sizes,
                strategies, calls, null);
        Charts.bars(dir.resolve("disk.png"), "Bytes dirtied and not cancelled per MiB committed (reached or headed "
                + "for the disk)", "MiB / MiB", sizes, strategies, diskBytes, null);
    }

    private static String chartName(Figure figure) {
        return figure == QUERY ? "query.png" : figure == MAPPER ? "mapper.png" : "tasks.png";
    }

    private static double metric(Optional<JmhResults.Row> r, Metric key) {
        return r.map(x -> x.metric(key).orElse(Double.NaN)).orElse(Double.NaN);
    }

    private String markdown() {
        StringWriter text = new StringWriter();
        PrintWriter out = new PrintWriter(text);
        JmhResults.Row any = writes().get(0);
        out.println("# Shuffle writer benchmark report");
        out.println();
        out.printf("Results: [`%s`](%s). Generated by `scripts/report.sh` from the JMH result; every figure below is "
                + "read from it, with JMH's 99.9%% error.%n%n", resultName, resultName);
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
        out.printf("| measured waves per configuration | %s |%n", measuredWaves());
        out.println("| clocks | mapper stage: " + MAPPER.clock + "; query total: " + QUERY.clock + "; sum of mapper "
                + "task durations: " + TASK_SUM.clock + " |");
        out.println("| one operation | one wave: every map task of the configuration written at once through one "
                + "executor of the strategy and committed (the seed's mapper stage) |");
        out.println("| between waves (not timed) | the reduce side reads every partition of every output (timed on its own: "
                + "query total = wave + read); outputs verified (the first wave row by row, later ones by their bytes' "
                + "digest) and removed; dirty data flushed (`sync`) and the wave waits until Dirty + Writeback are back "
                + "near idle |");
        out.println();
        out.println("### 2.3 Configurations");
        out.println();
        out.println("| config | input per task | batches per task | committed per task | tasks per wave | committed per wave |");
        out.println("|---|---|---|---|---|---|");
        for (String size : sizes) {
            Optional<JmhResults.Row> r = write(size, BASELINE).or(() -> write(size, strategies.get(0)));
            double committed = metric(r, Metric.IO_COMMITTED_BYTES);
            double tasks = metric(r, Metric.WAVE_TASKS);
            out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s | %s |%n", size, mb(metric(r, Metric.WAVE_INPUT_BYTES_PER_TASK)),
                    num(metric(r, Metric.WAVE_BATCHES_PER_TASK), "%.0f"), mb(committed), num(tasks, "%.0f"),
                    mb(committed * tasks));
        }
        out.println();
        out.println("## 3. Results");
        out.println();
        out.println("### 3.1 Charts");
        out.println();
        out.println("![Query total time](query.png)");
        out.println();
        out.println("![Mapper stage time](mapper.png)");
        out.println();
        out.println("![Sum of mapper task durations](tasks.png)");
        out.println();
        out.println("Whiskers: the 99.9% error of each mean, from its measured waves (Student's t for their count, as "
                + "JMH computes it), drawn only where there is an error: one wave has none. " + chartNote());
        out.println();
        out.println("![Amplification](amplification.png) ![Write calls per MiB](syscalls.png) ![To disk](disk.png)");
        out.println();
        int section = 2;
        for (Figure figure : List.of(QUERY, MAPPER, TASK_SUM)) {
            out.printf("### 3.%d %s (mean ± 99.9%% error)%n%n", section++, figure.title);
            out.println("Clock: " + figure.clock + ".");
            out.println();
            figureTable(out, figure);
        }
        if (paired()) {
            paired.write(out, "3." + section++, MAPPER.runs, QUERY.runs);
        }
        out.printf("### 3.%d Precision%n%n", section++);
        precisionTable(out);
        out.printf("### 3.%d I/O per map task and the page cache%n%n", section++);
        ioTable(out);
        out.printf("### 3.%d Against the raw-write reference%n%n", section);
        rawTable(out);
        out.println("## 4. Analysis");
        out.println();
        out.println("### 4.1 Crossover");
        out.println();
        out.println(crossover(MAPPER));
        out.println();
        out.println("By query total time: " + crossover(QUERY));
        out.println();
        out.println("### 4.2 What the counters say");
        out.println();
        for (String line : countersAnalysis()) {
            out.println("- " + line);
        }
        out.println();
        out.println("---");
        out.println();
        out.println("Page-cache writeback on this machine: dirty_background_ratio " + env.get("vm.dirty_background_ratio")
                + "%, dirty_ratio " + env.get("vm.dirty_ratio") + "% of the memory the page cache may use ("
                + env.get("memory") + " in all). Until dirty data passes the first, writes stay in memory.");
        out.flush();
        return text.toString();
    }

    private String measuredWaves() {
        Set<Integer> counts = new java.util.TreeSet<>();
        for (JmhResults.Row r : rows) {
            counts.add(r.samples);
        }
        return counts.toString().replaceAll("[\\[\\]]", "");
    }

    /**
     * What the time charts' whiskers show: the bars with errors above 5% of their value, the bars with no error (one
     * wave), and the series drawn without whiskers because some of their bars have none.
     */
    private String chartNote() {
        List<String> flagged = new ArrayList<>();
        List<String> oneWave = new ArrayList<>();
        List<String> bare = new ArrayList<>();
        int withError = 0;
        List<String> series = chartSeries();
        for (Figure figure : List.of(QUERY, MAPPER, TASK_SUM)) {
            double[][][] data = chartData(figure);
            boolean[] some = new boolean[series.size()];
            for (int i = 0; i < sizes.size(); i++) {
                for (int s = 0; s < series.size(); s++) {
                    double value = data[0][s][i];
                    double error = data[1][s][i];
                    if (Double.isNaN(value)) {
                        continue;
                    }
                    String bar = figure.name + " " + sizes.get(i) + " " + series.get(s);
                    if (Double.isNaN(error)) {
                        oneWave.add(bar);
                        continue;
                    }
                    some[s] = true;
                    withError++;
                    if (error / value > FLAG) {
                        flagged.add(String.format(Locale.ROOT, "%s (%.1f%%)", bar, 100 * error / value));
                    }
                }
            }
            for (int s = 0; s < series.size(); s++) {
                if (some[s] && !Charts.whiskers(data[0], data[1], s)) {
                    bare.add(figure.name + " " + series.get(s));
                }
            }
        }
        if (withError == 0) {
            return "No bar has a whisker: every configuration has one measured wave, so there is no error to draw.";
        }
        StringBuilder note = new StringBuilder(flagged.isEmpty() ? "Every error drawn is within 5% of its value."
                : "**Errors above 5% of the value:** " + String.join("; ", flagged) + ".");
        if (!oneWave.isEmpty()) {
            note.append(" No error (one wave): ").append(String.join("; ", oneWave)).append('.');
        }
        if (!bare.isEmpty()) {
            note.append(" Drawn without whiskers, as some of their bars have no error: ").append(String.join("; ", bare))
                    .append('.');
        }
        return note.toString();
    }

    private void figureTable(PrintWriter out, Figure figure) {
        out.print("| config |");
        strategies.forEach(s -> out.print(" " + s + " |"));
        strategies.stream().filter(s -> !s.equals(BASELINE)).forEach(s -> out.print(" " + s + " vs " + BASELINE + " |"));
        out.println();
        out.print("|---|");
        strategies.forEach(s -> out.print("---|"));
        strategies.stream().filter(s -> !s.equals(BASELINE)).forEach(s -> out.print("---|"));
        out.println();
        for (String size : sizes) {
            out.print("| " + size + " |");
            for (String s : strategies) {
                out.print(" " + write(size, s).map(r -> seconds(figure, r)).orElse("n/a") + " |");
            }
            for (String s : strategies) {
                if (!s.equals(BASELINE)) {
                    out.print(" " + improvementText(figure, size, s) + " |");
                }
            }
            out.println();
        }
        out.println();
        out.println(paired()
                ? "Improvement: 1 - the strategy's time over the baseline's, pair by pair (the geometric mean of the "
                + "pairs' ratios: waves of the same round), in % (positive: faster), with its 99% interval (Student's t "
                + "on the logarithms of the pairs' ratios) and the number of pairs; Welch's p on the two sets of waves, "
                + "unpaired, as a cross-check. **Bold**: the whole interval on one side of 0. ⚠: an error above 5% "
                + "of its value."
                : "Improvement: the baseline's time minus the strategy's, in % of the baseline's (positive: faster), "
                + "± the improvement's own error from both 99.9% errors; p: Welch's t-test on the two configurations' "
                + "measured waves (the chance of a difference this large where there is none). **Bold**: significant, "
                + "p < " + SIGNIFICANCE + ". ⚠: an error above 5% of its value.");
        out.println();
    }

    private static String pText(double p) {
        return Double.isNaN(p) ? "n/a" : p < 0.001 ? "< 0.001" : String.format(Locale.ROOT, "%.3f", p);
    }

    private String seconds(Figure figure, JmhResults.Row r) {
        double value = figure.value.apply(r);
        double error = figure.error(r);
        if (Double.isNaN(value)) {
            return "n/a";
        }
        if (Double.isNaN(error)) {
            return String.format(Locale.ROOT, "%.2f s (no error: %s)", value / 1000,
                    JmhResults.waves(figure.waves(r)));
        }
        return String.format(Locale.ROOT, "%.2f ± %.2f s%s", value / 1000, error / 1000,
                error / value > FLAG ? " ⚠" : "");
    }

    /**
     * A strategy against the baseline: (baseline - strategy) / baseline in % (positive: faster), its error propagated
     * from both 99.9% errors, and Welch's p-value on the two sets of measured waves; where both were paired wave by
     * wave (one paired configuration), also the paired ratio with its 99% interval, which then decides significance
     * (Welch's test stays as the cross-check).
     */
    private static final class Improvement {
        final double percent;
        final double error;
        final double p;
        /** The strategy's time over the baseline's, pair by pair; null where the rows are not paired. */
        final PairedRatio paired;

        Improvement(double percent, double error, double p, PairedRatio paired) {
            this.percent = percent;
            this.error = error;
            this.p = p;
            this.paired = paired;
        }

        /** Whether there is anything to test: an interval from the pairs, or Welch's test on two waves or more. */
        boolean tested() {
            return paired != null ? paired.hasInterval() : !Double.isNaN(p);
        }

        boolean significant() {
            return paired != null ? paired.faster() || paired.slower() : p < SIGNIFICANCE;
        }

        /** Faster than the baseline: the paired interval below 1, or else p < 0.01 and faster. */
        boolean faster() {
            return paired != null ? paired.faster() : percent > 0 && significant();
        }
    }

    private Optional<Improvement> improvement(Figure figure, String size, String strategy) {
        Optional<JmhResults.Row> base = write(size, BASELINE);
        Optional<JmhResults.Row> other = write(size, strategy);
        if (base.isEmpty() || other.isEmpty()) {
            return Optional.empty();
        }
        double b = figure.value.apply(base.get());
        double o = figure.value.apply(other.get());
        double eb = figure.error(base.get());
        double eo = figure.error(other.get());
        double value = (b - o) / b * 100;
        // d(o/b) = sqrt((eo/b)^2 + (o eb / b^2)^2), in %.
        double error = Math.sqrt(Math.pow(eo / b, 2) + Math.pow(o * eb / (b * b), 2)) * 100;
        double p = Stats.welchP(figure.runs.apply(base.get()), figure.runs.apply(other.get()));
        PairedRatio paired = null;
        if (!other.get().pairing().isEmpty() && PairedRows.partner(other.get(), BASELINE, rows) == base.get()) {
            paired = PairedRows.of(figure.runs.apply(other.get()), figure.runs.apply(base.get()));
        }
        return Optional.of(new Improvement(value, error, p, paired));
    }

    private String improvementText(Figure figure, String size, String strategy) {
        return improvement(figure, size, strategy).map(v -> {
            String t;
            if (v.paired != null) {
                PairedRatio r = v.paired;
                t = r.hasInterval() ? String.format(Locale.ROOT, "%+.1f%% [%+.1f, %+.1f], %d pairs (Welch p %s)",
                        100 * r.improvement(), 100 * (1 - r.high), 100 * (1 - r.low), r.pairs(), pText(v.p))
                        : String.format(Locale.ROOT, "%+.1f%% (no interval: one pair)", 100 * r.improvement());
            } else {
                t = Double.isNaN(v.error) ? String.format(Locale.ROOT, "%+.1f%% (no error: one wave)", v.percent)
                        : String.format(Locale.ROOT, "%+.1f%% ± %.1f, p %s", v.percent, v.error, pText(v.p));
            }
            return v.significant() ? "**" + t + "**" : t;
        }).orElse("n/a");
    }

    private void precisionTable(PrintWriter out) {
        out.println("The 99.9% error of each mean in % of it, from its measured waves (Student's t, as JMH computes "
                + "it; one wave has none), for the mapper stage and the query total:");
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
                out.print(" " + write(size, s).map(r -> String.format(Locale.ROOT, "%s / %s", precision(MAPPER, r),
                        precision(QUERY, r))).orElse("n/a") + " |");
            }
            out.println(" " + raw(size).map(r -> precision(MAPPER, r)).orElse("n/a") + " |");
        }
        out.println();
        out.println("Aimed at: within 3%; ⚠ past 5%. Each configuration's measured waves, in seconds, show where the "
                + "spread comes from:");
        out.println();
        out.println("| config | strategy | waves (s) |");
        out.println("|---|---|---|");
        for (String size : sizes) {
            for (String s : strategies) {
                write(size, s).ifPresent(r -> out.printf("| %s | %s | %s |%n", size, s, runsText(r.runs)));
            }
            raw(size).ifPresent(r -> out.printf("| %s | raw write | %s |%n", size, runsText(r.runs)));
        }
        noiseFloor().ifPresent(r -> out.printf("| (machine) | constant work, no I/O | %s |%n", runsText(r.runs)));
        out.println();
        noiseFloor().filter(r -> r.samples >= 2).ifPresent(r -> {
            double cv = Stats.cv(r.runs);
            double k = Stats.errorPerCv(r.samples, JmhResults.CONFIDENCE);
            int forTarget = Stats.runsFor(TARGET, cv, JmhResults.CONFIDENCE);
            double pass = oneIterationOfEverything();
            out.printf(Locale.ROOT, "Why: the machine itself. NoiseFloorBenchmark did exactly the same work in every "
                            + "iteration (%s threads, as many as the wave's tasks, each compressing the same 64 MiB "
                            + "with lz4 %s times; no I/O, no allocation): %.2f ± %.2f s, an error of %.1f%% of its "
                            + "mean, its iterations' coefficient of variation %.1f%%. With %d measured iterations "
                            + "JMH's 99.9%% error is %.2f times their coefficient of variation (Student's t), so 3%% "
                            + "needs a variation within %.2f%%, 5%% within %.2f%%. At this machine's %.1f%%, 3%% "
                            + "would take %s measured iterations per configuration and 5%% %s; the measured waves of "
                            + "one iteration of every configuration above take %.0f s together, so 3%% would "
                            + "mean %s minutes of measured waves alone.%n%n",
                    r.param("tasks"), r.param("rounds"), r.score / 1000, r.error / 1000, 100 * r.relativeError(),
                    100 * cv, r.samples, k, 100 * TARGET / k, 100 * FLAG / k, 100 * cv, count(forTarget),
                    count(Stats.runsFor(FLAG, cv, JmhResults.CONFIDENCE)), pass / 1000, forTarget == Integer.MAX_VALUE ? "countless"
                            : String.format(Locale.ROOT, "%.0f", forTarget * pass / 60_000));
        });
    }

    private static String count(int n) {
        return n == Integer.MAX_VALUE ? "more than 10000" : String.valueOf(n);
    }

    /** The mean wave times of every write and raw-write configuration, summed (ms). */
    private double oneIterationOfEverything() {
        double sum = 0;
        for (JmhResults.Row r : rows) {
            if (!r.is(BenchmarkName.NOISE_FLOOR)) {
                sum += r.score;
            }
        }
        return sum;
    }

    private static String runsText(List<Double> runs) {
        StringBuilder t = new StringBuilder();
        for (double v : runs) {
            t.append(t.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.2f", v / 1000));
        }
        return t.toString();
    }

    /** A figure's error in % of its mean, flagged past 5%; "no error (one wave)" where it has one wave. */
    private static String precision(Figure figure, JmhResults.Row r) {
        int waves = figure.waves(r);
        if (waves < 2) {
            return waves == 1 ? "no error (one wave)" : "n/a";
        }
        return percentFlag(figure.error(r) / figure.value.apply(r));
    }

    private static String percentFlag(double share) {
        if (Double.isNaN(share)) {
            return "n/a";
        }
        return String.format(Locale.ROOT, "%.1f%%%s", 100 * share, share > FLAG ? " ⚠" : "");
    }

    private void ioTable(PrintWriter out) {
        out.println("| config | strategy | amplification | write calls / MiB | write_bytes MiB / MiB | cancelled MiB / MiB "
                + "| peak Dirty | peak memory per task | spilled per task | gate: Dirty+Writeback before, wait |");
        out.println("|---|---|---|---|---|---|---|---|---|---|");
        for (String size : sizes) {
            for (String s : strategies) {
                write(size, s).ifPresent(r -> out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s, %s ms |%n",
                        size, s, num(metric(Optional.of(r), Metric.IO_AMPLIFICATION), "%.2f"),
                        num(metric(Optional.of(r), Metric.IO_WRITE_CALLS_PER_MIB), "%.1f"),
                        num(metric(Optional.of(r), Metric.PROC_WRITE_BYTES_PER_MIB) / (1 << 20), "%.2f"),
                        num(metric(Optional.of(r), Metric.PROC_CANCELLED_WRITE_BYTES_PER_MIB) / (1 << 20), "%.2f"),
                        mib(metric(Optional.of(r), Metric.DIRTY_PEAK_BYTES)), mib(metric(Optional.of(r), Metric.IO_PEAK_BUFFERED_BYTES)),
                        mb(metric(Optional.of(r), Metric.IO_SPILLED_BYTES)), mib(metric(Optional.of(r), Metric.GATE_DIRTY_BYTES_BEFORE)),
                        num(metric(Optional.of(r), Metric.GATE_WAIT_MILLIS), "%.0f")));
            }
        }
        out.println();
        out.println("write_bytes: bytes the process dirtied for storage; cancelled: dirty bytes dropped by deletes before "
                + "writeback (temp files that never reached the disk); both per MiB committed, from /proc/self/io. Peak "
                + "Dirty: the most dirty data /proc/meminfo showed during the wave.");
        out.println();
    }

    private void rawTable(PrintWriter out) {
        out.println("| config | raw write (4 MiB calls, tasks at once) | MB/s per wave | " + String.join(" | ", strategies) + " |");
        out.println("|---|---|---|" + "---|".repeat(strategies.size()));
        for (String size : sizes) {
            Optional<JmhResults.Row> raw = raw(size);
            out.print("| " + size + " | " + raw.map(r -> seconds(MAPPER, r)).orElse("n/a") + " | "
                    + raw.map(r -> String.format(Locale.ROOT, "%.0f", metric(Optional.of(r), Metric.IO_COMMITTED_BYTES)
                    * metric(Optional.of(r), Metric.WAVE_TASKS) / 1e6 / (r.score / 1000))).orElse("n/a") + " |");
            for (String s : strategies) {
                out.print(" " + write(size, s).flatMap(w -> raw.map(r -> String.format(Locale.ROOT, "%.1fx raw",
                        w.score / r.score))).orElse("n/a") + " |");
            }
            out.println();
        }
        out.println();
    }

    private List<String> summary() {
        List<String> lines = new ArrayList<>();
        String largest = sizes.get(sizes.size() - 1);
        lines.add("The question (the seed report's): does consolidation beat the per-batch writer, from which size on, "
                + "and why. Here: " + crossover(MAPPER));
        for (String s : strategies) {
            if (s.equals(BASELINE)) {
                continue;
            }
            improvement(MAPPER, largest, s).ifPresent(v -> lines.add(String.format(Locale.ROOT,
                    "At %s, %s's mapper stage time is %s against %s (%s); its query total time %s.", largest, s,
                    improvementText(MAPPER, largest, s), BASELINE, !v.tested()
                            ? (v.paired != null ? "no interval: one pair" : "no Welch's test: one wave")
                            : v.significant() ? "significant" : "not significant",
                    improvementText(QUERY, largest, s))));
        }
        if (paired()) {
            lines.add(paired.summary(MAPPER.runs, PAIRED_SECTION));
        }
        int within = 0;
        int flagged = 0;
        int total = 0;
        int unmeasured = 0;
        double worst = 0;
        for (JmhResults.Row r : rows) {
            if (r.is(BenchmarkName.NOISE_FLOOR)) {
                continue;
            }
            total++;
            if (MAPPER.waves(r) < 2) {
                unmeasured++;
                continue;
            }
            double rel = MAPPER.error(r) / MAPPER.value.apply(r);
            within += rel <= TARGET ? 1 : 0;
            flagged += rel > FLAG ? 1 : 0;
            worst = Math.max(worst, rel);
        }
        lines.add(unmeasured == total ? "Precision: no error: one measured wave per configuration, so neither an "
                + "error nor Welch's test can be stated."
                : String.format(Locale.ROOT, "Precision: %d of %d configurations within 3%% (the 99.9%% error of the "
                + "mean, from %s measured waves), %d past 5%%; the worst %.1f%%%s. Section " + (paired() ? "3.6" : "3.5")
                + " shows every wave.",
                within, total - unmeasured, measuredWaves(), flagged, 100 * worst,
                unmeasured > 0 ? "; " + unmeasured + " with one wave and no error" : "")
                + noiseFloor().filter(r -> r.samples >= 2).map(r -> String.format(Locale.ROOT, " The same work in "
                        + "every iteration, with no I/O, measured on this machine in the same run: %.1f%%.",
                        100 * r.relativeError())).orElse(""));
        return lines;
    }

    /**
     * The smallest size from which a strategy is faster than the baseline with significance (Welch's t-test,
     * p < {@value #SIGNIFICANCE}), at that size and every larger one.
     */
    private String crossover(Figure figure) {
        if (!strategies.contains(BASELINE) || strategies.size() < 2) {
            return "No crossover to find: the baseline (" + BASELINE + ") or a second strategy is missing.";
        }
        StringBuilder out = new StringBuilder();
        for (String s : strategies) {
            if (s.equals(BASELINE)) {
                continue;
            }
            String from = null;
            for (int i = sizes.size() - 1; i >= 0; i--) {
                if (!improvement(figure, sizes.get(i), s).map(Improvement::faster).orElse(false)) {
                    break;
                }
                from = sizes.get(i);
            }
            if (out.length() > 0) {
                out.append(' ');
            }
            boolean untested = improvement(figure, sizes.get(sizes.size() - 1), s).map(v -> !v.tested())
                    .orElse(false);
            boolean paired = improvement(figure, sizes.get(sizes.size() - 1), s).map(v -> v.paired != null)
                    .orElse(false);
            // Paired: the whole 99% interval of the improvement above 0; unpaired: Welch's p < 0.01.
            String faster = paired ? "faster than %s with 99%% confidence" : "significantly faster than %s";
            String by = paired ? " (paired intervals)" : "";
            if (from == null && untested) {
                out.append(paired ? String.format("%s against %s: no interval at the largest size (one pair), so no "
                        + "crossover can be found in this run.", s, BASELINE)
                        : String.format("%s against %s: no Welch's test at the largest size (one wave: no spread to "
                        + "test), so no crossover can be found in this run.", s, BASELINE));
            } else if (from == null) {
                out.append(String.format("%s is not " + faster + " at the largest size%s, so it has no crossover in "
                        + "this run.", s, BASELINE, by));
            } else if (from.equals(sizes.get(0))) {
                out.append(String.format("%s is " + faster + " at every size%s, from %s up: no crossover inside "
                        + "this range.", s, BASELINE, by, from));
            } else {
                out.append(String.format("%s is " + faster + " from %s up (the crossover%s), and not at the size "
                        + "below.", s, BASELINE, from, paired ? "; paired intervals" : ""));
            }
        }
        return out.toString();
    }

    /**
     * What the counters add to the times: per strategy, the ranges over the sizes of bytes dirtied, cancelled, write
     * calls and memory, a strategy that writes no file said as such; then, per size, the storage's own time for one
     * copy of the committed bytes against each wave, which bounds what writing fewer bytes can save.
     */
    private List<String> countersAnalysis() {
        List<String> lines = new ArrayList<>();
        for (String s : strategies) {
            List<JmhResults.Row> rs = new ArrayList<>();
            sizes.forEach(size -> write(size, s).ifPresent(rs::add));
            if (rs.isEmpty()) {
                continue;
            }
            if (rs.stream().allMatch(r -> metric(Optional.of(r), Metric.IO_BYTES_WRITTEN) == 0)) {
                lines.add(String.format(Locale.ROOT, "%s writes no file: its map output stays in memory and readers are "
                        + "served from it, so its waves are compression and copies alone; peak memory per task %s.", s,
                        range(rs, Metric.IO_PEAK_BUFFERED_BYTES, 1 << 20, "%.0f MiB")));
                continue;
            }
            lines.add(String.format(Locale.ROOT, "%s: %s MiB dirtied per MiB committed, of which %s cancelled by deletes "
                            + "before writeback; %s write calls per MiB; peak Dirty %s; peak memory per task %s.", s,
                    range(rs, Metric.PROC_WRITE_BYTES_PER_MIB, 1 << 20, "%.2f"),
                    range(rs, Metric.PROC_CANCELLED_WRITE_BYTES_PER_MIB, 1 << 20, "%.2f"),
                    range(rs, Metric.IO_WRITE_CALLS_PER_MIB, 1, "%.1f"), range(rs, Metric.DIRTY_PEAK_BYTES, 1 << 20, "%.0f MiB"),
                    range(rs, Metric.IO_PEAK_BUFFERED_BYTES, 1 << 20, "%.0f MiB")));
        }
        for (String size : sizes) {
            raw(size).ifPresent(raw -> {
                List<String> shares = new ArrayList<>();
                for (String s : strategies) {
                    write(size, s).ifPresent(r -> shares.add(String.format(Locale.ROOT, "%.0f%% of %s's", 100 * raw.score
                            / r.score, s)));
                }
                lines.add(String.format(Locale.ROOT, "At %s the storage takes %.2f s to write one copy of the committed "
                        + "bytes (the raw write): %s wave.", size, raw.score / 1000, String.join(", ", shares)));
            });
        }
        return lines;
    }

    /** A metric's smallest and largest value over rows, divided by {@code unit}, e.g. "1.00-2.00". */
    private static String range(List<JmhResults.Row> rs, Metric key, double unit, String format) {
        double min = rs.stream().mapToDouble(r -> metric(Optional.of(r), key)).min().orElse(Double.NaN) / unit;
        double max = rs.stream().mapToDouble(r -> metric(Optional.of(r), key)).max().orElse(Double.NaN) / unit;
        String a = num(min, format);
        String b = num(max, format);
        return a.equals(b) ? a : a + " to " + b;
    }

    private static String mb(double bytes) {
        if (Double.isNaN(bytes)) {
            return "n/a";
        }
        return bytes >= 1e9 ? String.format(Locale.ROOT, "%.2f GB", bytes / 1e9)
                : String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    }

    private static String mib(double bytes) {
        return Double.isNaN(bytes) ? "n/a" : String.format(Locale.ROOT, "%.0f MiB", bytes / (1 << 20));
    }

    private static String num(double v, String format) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, format, v);
    }
}
