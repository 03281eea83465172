package dev.sluice.report;

import dev.sluice.core.device.FluidDisk;
import dev.sluice.core.device.MapStageModel;
import dev.sluice.core.input.DataSize;
import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.core.run.Metric;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The crossover map ({@code scripts/bench.sh --preset balance}): for every machine balance measured and every size,
 * each strategy's mapper-stage time against the baseline's in the same run (the run's first strategy, per-batch in the
 * balance preset), beside what a fluid disk of the same figures predicts ({@link MapStageModel}), and the crossover:
 * the smallest size from which a strategy is faster than the baseline at that size and every larger one, with the whole
 * interval of the improvement above zero (for the model: above zero). A balance is the disk per task slot over the
 * rate a slot's map task makes its output, with the dirty cache per slot ({@code per-slot:...:produce=}, the balance
 * preset's devices), which carries over between harnesses; an older run's absolute devices (disk in MB/s per slot)
 * are read as before. Figures per slot are at full scale: a run at data scale f had f times the dirty cache, as
 * similarity asks, and is reported as the node it stands for.
 */
public final class BalanceMap {
    /**
     * A strategy against the baseline at one size: the improvement (the baseline's time over the strategy's, minus 1)
     * with its interval, and what the fluid model predicts for it (NaN where the run does not give the model's
     * figures: native storage, an absolute device without a task rate).
     */
    static final class Cell {
        final double improvement;
        final double low;
        final double high;
        final boolean paired;
        final double model;

        Cell(double improvement, double low, double high, boolean paired, double model) {
            this.improvement = improvement;
            this.low = low;
            this.high = high;
            this.paired = paired;
            this.model = model;
        }

        boolean faster() {
            return low > 0; // false for NaN: no interval, no claim
        }

        boolean modelFaster() {
            return model > MODEL_TIE; // false for NaN
        }
    }

    /** Below this the model's improvement is none: a disk that holds neither back gives both the same time. */
    static final double MODEL_TIE = 1e-6;

    private BalanceMap() {}

    /** Writes balance.md and a chart per balance into {@code outDir}; returns the Markdown file. */
    public static Path write(List<JmhResults.Row> rows, Path outDir, String resultLink) throws IOException {
        Files.createDirectories(outDir);
        Map<MapBalance, Map<String, Map<String, JmhResults.Row>>> byBalance = new TreeMap<>();
        List<String> sizes = new ArrayList<>();
        List<String> strategies = new ArrayList<>();
        for (JmhResults.Row row : rows) {
            if (!row.isWave()) {
                continue;
            }
            String size = row.param(BenchmarkParam.SIZE);
            String strategy = row.param(BenchmarkParam.STRATEGY);
            if (!sizes.contains(size)) {
                sizes.add(size);
            }
            if (!strategies.contains(strategy)) {
                strategies.add(strategy);
            }
            byBalance.computeIfAbsent(MapBalance.of(row), b -> new LinkedHashMap<>())
                    .computeIfAbsent(size, s -> new LinkedHashMap<>()).put(strategy, row);
        }
        sizes.sort(Comparator.comparingLong(s -> DataSize.parse(BenchmarkParam.SIZE.key(), s).bytes()));
        String baseline = SeedRun.baseline(rows, SeedRun.inPlanOrder(strategies));
        strategies.remove(baseline);
        StringBuilder md = new StringBuilder();
        md.append("# The crossover map\n\n");
        md.append("Each row: a machine balance (the disk per task slot over the rate a slot's map task makes its "
                + "output, and the dirty page cache per slot, at full scale), a size, " + baseline + "'s mapper stage "
                + "(mean ± JMH's 99.9% error) and each strategy's against it in the same run: the improvement ("
                + baseline + "'s time / the strategy's - 1) with its 99% interval (paired waves: the geometric mean "
                + "of the pairs' ratios, Student's t on their logarithms; unpaired: the geometric means' ratio, "
                + "Welch's t on the logarithms of the waves' times), and beside it the fluid model's improvement for "
                + "the same run (`MapStageModel`): a disk of the device's rate and cache (`FluidDisk`), the run's "
                + "tasks each making its map output (`wave.dataBytesPerTask`) at the task rate the device was set "
                + "from (`device.taskRateMBps`), and writing the strategy's measured bytes (`io.amplification`: "
                + "per-batch's two copies) as its waves did: the share measured at commit (`io.atCommitShare`: "
                + "per-batch's copy, buffered's whole output) at once when the output is made, the rest as it is "
                + "made; nothing fitted. "
                + "The crossover is the smallest size from which a strategy is faster with its whole interval above 0 "
                + "at that size and every larger one (the model's: above 0). Results: `" + resultLink + "`.\n\n");
        md.append("| balance per slot | size | " + baseline + " (ms) |");
        for (String s : strategies) {
            md.append(' ').append(s).append(" | ").append(s).append(", fluid model |");
        }
        md.append("\n|---|---|---|").append("---|---|".repeat(strategies.size())).append('\n');
        Map<MapBalance, Map<String, String>> crossovers = new LinkedHashMap<>();
        for (Map.Entry<MapBalance, Map<String, Map<String, JmhResults.Row>>> e : byBalance.entrySet()) {
            MapBalance balance = e.getKey();
            Map<String, Cell[]> cells = new LinkedHashMap<>();
            for (String s : strategies) {
                cells.put(s, new Cell[sizes.size()]);
            }
            for (int i = 0; i < sizes.size(); i++) {
                Map<String, JmhResults.Row> bySize = e.getValue().get(sizes.get(i));
                JmhResults.Row base = bySize == null ? null : bySize.get(baseline);
                md.append("| ").append(balance.label()).append(" | ").append(sizes.get(i)).append(" | ")
                        .append(base == null ? "-" : String.format(Locale.ROOT, "%.0f ± %s", base.score,
                                error(base))).append(" |");
                for (String strategy : strategies) {
                    JmhResults.Row row = bySize == null ? null : bySize.get(strategy);
                    Cell cell = base == null || row == null ? null : cell(base, row);
                    cells.get(strategy)[i] = cell;
                    md.append(' ').append(cell == null ? "-" : Double.isNaN(cell.low)
                            ? String.format(Locale.ROOT, "%+.1f%% (no interval: one wave)", 100 * cell.improvement)
                            : String.format(Locale.ROOT, "%+.1f%% [%+.1f, %+.1f]", 100 * cell.improvement,
                            100 * cell.low, 100 * cell.high)).append(" | ")
                            .append(cell == null || Double.isNaN(cell.model) ? "-"
                                    : String.format(Locale.ROOT, "%+.1f%%", 100 * cell.model)).append(" |");
                }
                md.append('\n');
            }
            Map<String, String> crossing = new LinkedHashMap<>();
            for (String s : strategies) {
                String measured = crossover(sizes, cells.get(s), Cell::faster);
                boolean modelled = Arrays.stream(cells.get(s)).anyMatch(c -> c != null && !Double.isNaN(c.model));
                crossing.put(s, modelled ? measured + " (model: " + crossover(sizes, cells.get(s), Cell::modelFaster)
                        + ")" : measured);
            }
            crossovers.put(balance, crossing);
            BalanceChart.write(outDir.resolve(balance.file()), balance.label(), baseline, sizes, strategies, cells);
        }
        md.append("\n## Crossover size by balance\n\n| balance per slot |");
        for (String s : strategies) {
            md.append(' ').append(s).append(" |");
        }
        md.append("\n|---|").append("---|".repeat(strategies.size())).append('\n');
        for (Map.Entry<MapBalance, Map<String, String>> e : crossovers.entrySet()) {
            md.append("| ").append(e.getKey().label()).append(" |");
            for (String s : strategies) {
                md.append(' ').append(e.getValue().get(s)).append(" |");
            }
            md.append('\n');
        }
        modelTable(md, byBalance, sizes, baseline, strategies);
        md.append("\n## Charts\n\nSolid: the measured improvement with its interval (cut at the chart's edge); dashed: "
                + "the fluid model's.\n\n");
        for (MapBalance b : byBalance.keySet()) {
            md.append("![").append(b.label()).append("](").append(b.file()).append(")\n\n");
        }
        Path file = outDir.resolve("balance.md");
        Files.writeString(file, md.toString(), StandardCharsets.UTF_8);
        return file;
    }

    /** Each strategy's wave over the model's time, per balance and size: which strategy departs from the model. */
    private static void modelTable(StringBuilder md, Map<MapBalance, Map<String, Map<String, JmhResults.Row>>> byBalance,
                                   List<String> sizes, String baseline, List<String> strategies) {
        md.append("\n## Each strategy against the fluid model\n\nEach strategy's mapper stage (its waves' mean, ms) "
                + "over the model's time for the same wave: where the improvements above depart from the model's, "
                + "these say which strategy departs. The model gives every strategy the task rate the device was set "
                + "from, which " + baseline + " measured on native storage (`device.taskRateMBps`).\n\n");
        md.append("| balance per slot | size |");
        List<String> all = new ArrayList<>();
        all.add(baseline);
        all.addAll(strategies);
        for (String s : all) {
            md.append(' ').append(s).append(" |");
        }
        md.append("\n|---|---|").append("---|".repeat(all.size())).append('\n');
        for (Map.Entry<MapBalance, Map<String, Map<String, JmhResults.Row>>> e : byBalance.entrySet()) {
            for (String size : sizes) {
                Map<String, JmhResults.Row> bySize = e.getValue().get(size);
                if (bySize == null) {
                    continue;
                }
                md.append("| ").append(e.getKey().label()).append(" | ").append(size).append(" |");
                for (String s : all) {
                    JmhResults.Row row = bySize.get(s);
                    double model = row == null ? Double.NaN : modelMillis(row);
                    md.append(' ').append(row == null ? "-" : Double.isNaN(model)
                            ? String.format(Locale.ROOT, "%.0f / -", row.score)
                            : String.format(Locale.ROOT, "%.0f / %.0f = %.2f", row.score, model, row.score / model))
                            .append(" |");
                }
                md.append('\n');
            }
        }
    }

    /** The confidence of the improvements' intervals. */
    static final double CONFIDENCE = 0.99;

    /**
     * The improvement of {@code row} over {@code base} (the baseline's time over the strategy's, minus 1), with its
     * {@value #CONFIDENCE} interval, and the fluid model's improvement for the same figures ({@link #model}). Paired
     * rows (waves of one fork taking turns, as many of each): the geometric mean of the pairs' ratios with Student's t
     * on their logarithms ({@link PairedRatio}), so that what drifts between rounds cancels. Unpaired: the ratio of
     * the geometric means with Welch's t on the logarithms of both runs' wave times (the Welch-Satterthwaite degrees of
     * freedom); JMH's own 99.9% error of three waves uses t = 31.6 and says nothing of a ratio. Fewer than two waves on
     * either side: no interval (NaN bounds), and no crossover is claimed from it.
     */
    static Cell cell(JmhResults.Row base, JmhResults.Row row) {
        double model = model(base, row);
        PairedRatio paired = !row.pairing().isEmpty() && !base.pairing().isEmpty()
                ? PairedRows.of(row.runs, base.runs) : null;
        if (paired != null) {
            // The strategy's time over the baseline's, inverted: the baseline's over the strategy's.
            return new Cell(1 / paired.ratio - 1, 1 / paired.high - 1, 1 / paired.low - 1, true, model);
        }
        Stats.Interval r = Stats.welch(base.runs, row.runs, CONFIDENCE);
        return new Cell(1 / r.ratio - 1, 1 / r.high - 1, 1 / r.low - 1, false, model);
    }

    /**
     * What a fluid disk predicts for {@code row}'s improvement over {@code base} in the same run: each one's
     * {@link #modelMillis}, the baseline's over the strategy's, minus 1. NaN where a figure is missing.
     */
    static double model(JmhResults.Row base, JmhResults.Row row) {
        return modelMillis(base) / modelMillis(row) - 1;
    }

    /**
     * What a fluid disk of {@code row}'s device takes for its wave, ms ({@link MapStageModel}); NaN where a figure is
     * missing (native storage; an absolute device, which records no task rate).
     */
    static double modelMillis(JmhResults.Row row) {
        OptionalDouble rate = row.metric(Metric.DEVICE_WRITE_MBPS);
        OptionalDouble dirty = row.metric(Metric.DEVICE_DIRTY_MB);
        OptionalDouble taskRate = row.metric(Metric.DEVICE_TASK_RATE_MBPS);
        String tasks = row.param(BenchmarkParam.TASKS);
        if (rate.isEmpty() || dirty.isEmpty() || taskRate.isEmpty() || tasks.isEmpty() || !(rate.getAsDouble() > 0)
                || !(taskRate.getAsDouble() > 0)) {
            return Double.NaN;
        }
        MapStageModel stage = new MapStageModel(new FluidDisk(rate.getAsDouble() * 1e6, dirty.getAsDouble() * 1e6),
                Integer.parseInt(tasks), taskRate.getAsDouble() * 1e6);
        return 1000 * seconds(stage, row);
    }

    /**
     * One row's time in the model: its map output per task, times its amplification, written as its waves wrote it
     * ({@code io.atCommitShare}: the share at commit; a run from before it was measured, every byte as it is made).
     */
    private static double seconds(MapStageModel stage, JmhResults.Row row) {
        OptionalDouble bytes = row.metric(Metric.WAVE_DATA_BYTES_PER_TASK);
        OptionalDouble amplification = row.metric(Metric.IO_AMPLIFICATION);
        if (bytes.isEmpty() || amplification.isEmpty()) {
            return Double.NaN;
        }
        double atCommit = row.metric(Metric.IO_AT_COMMIT_SHARE).orElse(0);
        return stage.seconds(bytes.getAsDouble(), new MapStageModel.WriteShape(amplification.getAsDouble(),
                Math.max(0, Math.min(1, atCommit))));
    }

    /**
     * The smallest size from which {@code faster} holds at every larger size; "none" if never, "-" if a size from the
     * largest down has no comparison.
     */
    static String crossover(List<String> sizes, Cell[] cells, Predicate<Cell> faster) {
        String from = null;
        for (int i = sizes.size() - 1; i >= 0; i--) {
            if (cells[i] == null) {
                return from == null ? "-" : from;
            }
            if (!faster.test(cells[i])) {
                break;
            }
            from = sizes.get(i);
        }
        if (from == null) {
            return "none";
        }
        return from.equals(sizes.get(0)) ? "from " + from + " (every size)" : "from " + from;
    }

    private static String error(JmhResults.Row row) {
        return Double.isNaN(row.error) ? "none (one wave)" : String.format(Locale.ROOT, "%.0f", row.error);
    }
}
