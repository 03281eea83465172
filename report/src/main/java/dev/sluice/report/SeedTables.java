package dev.sluice.report;

import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.core.run.Metric;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The seed report's tables, written from its model: the run's environment and configurations, each time figure with
 * the improvements over the baseline, the precision of every figure and the waves behind it, the I/O per task and the
 * raw-write reference. The emulated device's table ({@link DeviceModelTable}) and the floor's ({@link FloorTable})
 * have classes of their own.
 */
final class SeedTables {
    private final SeedRun run;
    private final Environment env;

    SeedTables(SeedRun run, Environment env) {
        this.run = run;
        this.env = env;
    }

    void environment(PrintWriter out) {
        out.println("| component | value |");
        out.println("|---|---|");
        for (Map.Entry<String, String> e : env.values().entrySet()) {
            out.printf("| %s | %s |%n", e.getKey(), e.getValue());
        }
        out.println();
    }

    /** The parameters every configuration shares, and what one operation and the time between waves are. */
    void configuration(PrintWriter out) {
        out.println("| parameter | value |");
        out.println("|---|---|");
        Map<String, String> common = new TreeMap<>(run.writes.get(0).params);
        common.remove(BenchmarkParam.SIZE.key());
        common.remove(BenchmarkParam.STRATEGY.key());
        for (JmhResults.Row r : run.writes) {
            common.entrySet().removeIf(e -> !e.getValue().equals(r.param(e.getKey())));
        }
        common.forEach((k, v) -> out.printf("| %s | %s |%n", k, v));
        out.printf("| measured waves per configuration | %s |%n", run.measuredWaves());
        out.println("| clocks | mapper stage: " + Figure.MAPPER.clock + "; query total: " + Figure.QUERY.clock
                + "; sum of mapper task durations: " + Figure.TASK_SUM.clock + " |");
        out.println("| one operation | one wave: every map task of the configuration written at once through one "
                + "executor of the strategy and committed (the seed's mapper stage) |");
        out.println("| between waves (not timed) | the reduce side reads every partition of every output (timed on its "
                + "own: query total = wave + read); outputs verified (the first wave row by row, later ones by their "
                + "bytes' digest) and removed; dirty data flushed (`sync`) and the wave waits until Dirty + Writeback "
                + "are back near idle |");
        out.println();
    }

    void configurations(PrintWriter out) {
        out.println("| config | input per task | batches per task | committed per task | tasks per wave "
                + "| committed per wave |");
        out.println("|---|---|---|---|---|---|");
        for (String size : run.sizes) {
            Optional<JmhResults.Row> r = run.write(size, run.baseline).or(() -> run.write(size, run.strategies.get(0)));
            double committed = SeedRun.metric(r, Metric.IO_COMMITTED_BYTES);
            double tasks = SeedRun.metric(r, Metric.WAVE_TASKS);
            out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s | %s |%n", size,
                    mb(SeedRun.metric(r, Metric.WAVE_INPUT_BYTES_PER_TASK)),
                    num(SeedRun.metric(r, Metric.WAVE_BATCHES_PER_TASK), "%.0f"), mb(committed), num(tasks, "%.0f"),
                    mb(committed * tasks));
        }
        out.println();
    }

    /** A time figure per size and strategy, mean ± error, and each strategy's improvement over the baseline. */
    void figure(PrintWriter out, Figure figure) {
        out.println("Clock: " + figure.clock + ".");
        out.println();
        List<String> others = run.others();
        out.print("| config |");
        run.strategies.forEach(s -> out.print(" " + s + " |"));
        others.forEach(s -> out.print(" " + s + " vs " + run.baseline + " |"));
        out.println();
        out.print("|---|");
        run.strategies.forEach(s -> out.print("---|"));
        others.forEach(s -> out.print("---|"));
        out.println();
        for (String size : run.sizes) {
            out.print("| " + size + " |");
            for (String s : run.strategies) {
                out.print(" " + run.write(size, s).map(r -> seconds(figure, r)).orElse("n/a") + " |");
            }
            for (String s : others) {
                out.print(" " + run.improvement(figure, size, s).map(Improvement::text).orElse("n/a") + " |");
            }
            out.println();
        }
        out.println();
        out.println(run.isPaired()
                ? "Improvement: 1 - the strategy's time over the baseline's, pair by pair (the geometric mean of the "
                + "pairs' ratios: waves of the same round), in % (positive: faster), with its 99% interval "
                + "(Student's t on the logarithms of the pairs' ratios) and the number of pairs; Welch's p on the two "
                + "sets of waves, unpaired, as a cross-check. **Bold**: the whole interval on one side of 0. ⚠: an "
                + "error above 5% of its value."
                : "Improvement: the baseline's time minus the strategy's, in % of the baseline's (positive: faster), "
                + "± the improvement's own error from both 99.9% errors; p: Welch's t-test on the two configurations' "
                + "measured waves (the chance of a difference this large where there is none). **Bold**: significant, "
                + "p < " + SeedReport.SIGNIFICANCE + ". ⚠: an error above 5% of its value.");
        out.println();
    }

    /** A figure's mean in seconds with its error, flagged past 5%, or that it has none. */
    static String seconds(Figure figure, JmhResults.Row r) {
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
                error / value > SeedReport.FLAG ? " ⚠" : "");
    }

    /** Each mean's error in % of it, every configuration's waves, and what the machine's own spread allows. */
    void precision(PrintWriter out) {
        out.println("The 99.9% error of each mean in % of it, from its measured waves (Student's t, as JMH computes "
                + "it; one wave has none), for the mapper stage and the query total:");
        out.println();
        out.print("| config |");
        run.strategies.forEach(s -> out.print(" " + s + " |"));
        out.println(" raw write |");
        out.print("|---|");
        run.strategies.forEach(s -> out.print("---|"));
        out.println("---|");
        for (String size : run.sizes) {
            out.print("| " + size + " |");
            for (String s : run.strategies) {
                out.print(" " + run.write(size, s).map(r -> String.format(Locale.ROOT, "%s / %s",
                        precision(Figure.MAPPER, r), precision(Figure.QUERY, r))).orElse("n/a") + " |");
            }
            out.println(" " + run.raw(size).map(r -> precision(Figure.MAPPER, r)).orElse("n/a") + " |");
        }
        out.println();
        out.println("Aimed at: within 3%; ⚠ past 5%. Each configuration's measured waves, in seconds, show where the "
                + "spread comes from:");
        out.println();
        out.println("| config | strategy | waves (s) |");
        out.println("|---|---|---|");
        for (String size : run.sizes) {
            for (String s : run.strategies) {
                run.write(size, s).ifPresent(r -> out.printf("| %s | %s | %s |%n", size, s, runsText(r.runs)));
            }
            run.raw(size).ifPresent(r -> out.printf("| %s | raw write | %s |%n", size, runsText(r.runs)));
        }
        run.noiseFloor().ifPresent(r -> out.printf("| (machine) | constant work, no I/O | %s |%n", runsText(r.runs)));
        out.println();
        run.noiseFloor().filter(r -> r.samples >= 2).ifPresent(r -> {
            double cv = Stats.cv(r.runs);
            double k = Stats.errorPerCv(r.samples, JmhResults.CONFIDENCE);
            int forTarget = Stats.runsFor(SeedReport.TARGET, cv, JmhResults.CONFIDENCE);
            double pass = run.oneIterationOfEverything();
            out.printf(Locale.ROOT, "Why: the machine itself. NoiseFloorBenchmark did exactly the same work in every "
                            + "iteration (%s threads, as many as the wave's tasks, each compressing the same 64 MiB "
                            + "with lz4 %s times; no I/O, no allocation): %.2f ± %.2f s, an error of %.1f%% of its "
                            + "mean, its iterations' coefficient of variation %.1f%%. With %d measured iterations "
                            + "JMH's 99.9%% error is %.2f times their coefficient of variation (Student's t), so 3%% "
                            + "needs a variation within %.2f%%, 5%% within %.2f%%. At this machine's %.1f%%, 3%% "
                            + "would take %s measured iterations per configuration and 5%% %s; the measured waves of "
                            + "one iteration of every configuration above take %.0f s together, so 3%% would "
                            + "mean %s minutes of measured waves alone.%n%n",
                    r.param(BenchmarkParam.TASKS), r.param(BenchmarkParam.ROUNDS), r.score / 1000, r.error / 1000,
                    100 * r.relativeError(),
                    100 * cv, r.samples, k, 100 * SeedReport.TARGET / k, 100 * SeedReport.FLAG / k, 100 * cv,
                    count(forTarget), count(Stats.runsFor(SeedReport.FLAG, cv, JmhResults.CONFIDENCE)), pass / 1000,
                    forTarget == Integer.MAX_VALUE ? "countless"
                            : String.format(Locale.ROOT, "%.0f", forTarget * pass / 60_000));
        });
    }

    private static String count(int n) {
        return n == Integer.MAX_VALUE ? "more than 10000" : String.valueOf(n);
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
        double share = figure.error(r) / figure.value.apply(r);
        if (Double.isNaN(share)) {
            return "n/a";
        }
        return String.format(Locale.ROOT, "%.1f%%%s", 100 * share, share > SeedReport.FLAG ? " ⚠" : "");
    }

    void io(PrintWriter out) {
        out.println("| config | strategy | amplification | write calls / MiB | write_bytes MiB / MiB "
                + "| cancelled MiB / MiB | peak Dirty | peak memory per task | spilled per task "
                + "| gate: Dirty+Writeback before, wait |");
        out.println("|---|---|---|---|---|---|---|---|---|---|");
        for (String size : run.sizes) {
            for (String s : run.strategies) {
                run.write(size, s).map(Optional::of).ifPresent(r -> out.printf(Locale.ROOT,
                        "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s, %s ms |%n", size, s,
                        num(SeedRun.metric(r, Metric.IO_AMPLIFICATION), "%.2f"),
                        num(SeedRun.metric(r, Metric.IO_WRITE_CALLS_PER_MIB), "%.1f"),
                        num(SeedRun.metric(r, Metric.PROC_WRITE_BYTES_PER_MIB) / (1 << 20), "%.2f"),
                        num(SeedRun.metric(r, Metric.PROC_CANCELLED_WRITE_BYTES_PER_MIB) / (1 << 20), "%.2f"),
                        mib(SeedRun.metric(r, Metric.DIRTY_PEAK_BYTES)),
                        mib(SeedRun.metric(r, Metric.IO_PEAK_BUFFERED_BYTES)),
                        mb(SeedRun.metric(r, Metric.IO_SPILLED_BYTES)),
                        mib(SeedRun.metric(r, Metric.GATE_DIRTY_BYTES_BEFORE)),
                        num(SeedRun.metric(r, Metric.GATE_WAIT_MILLIS), "%.0f")));
            }
        }
        out.println();
        out.println("write_bytes: bytes the process dirtied for storage; cancelled: dirty bytes dropped by deletes "
                + "before writeback (temp files that never reached the disk); both per MiB committed, from "
                + "/proc/self/io. Peak Dirty: the most dirty data /proc/meminfo showed during the wave.");
        out.println();
    }

    void raw(PrintWriter out) {
        out.println("| config | raw write (4 MiB calls, tasks at once) | MB/s per wave | "
                + String.join(" | ", run.strategies) + " |");
        out.println("|---|---|---|" + "---|".repeat(run.strategies.size()));
        for (String size : run.sizes) {
            Optional<JmhResults.Row> raw = run.raw(size);
            out.print("| " + size + " | " + raw.map(r -> seconds(Figure.MAPPER, r)).orElse("n/a") + " | "
                    + raw.map(r -> String.format(Locale.ROOT, "%.0f", SeedRun.metric(raw, Metric.IO_COMMITTED_BYTES)
                    * SeedRun.metric(raw, Metric.WAVE_TASKS) / 1e6 / (r.score / 1000))).orElse("n/a") + " |");
            for (String s : run.strategies) {
                out.print(" " + run.write(size, s).flatMap(w -> raw.map(r -> String.format(Locale.ROOT, "%.1fx raw",
                        w.score / r.score))).orElse("n/a") + " |");
            }
            out.println();
        }
        out.println();
    }

    static String mb(double bytes) {
        if (Double.isNaN(bytes)) {
            return "n/a";
        }
        return bytes >= 1e9 ? String.format(Locale.ROOT, "%.2f GB", bytes / 1e9)
                : String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    }

    static String mib(double bytes) {
        return Double.isNaN(bytes) ? "n/a" : String.format(Locale.ROOT, "%.0f MiB", bytes / (1 << 20));
    }

    static String num(double v, String format) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, format, v);
    }
}
