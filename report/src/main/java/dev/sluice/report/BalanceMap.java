package dev.sluice.report;

import dev.sluice.core.device.DeviceProfile;
import dev.sluice.core.device.DeviceSpec;
import dev.sluice.core.input.DataSize;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * The crossover map ({@code scripts/bench.sh --preset balance}): for every machine balance measured (disk write
 * bandwidth and dirty page cache per task slot, as the runs' {@code device} parameter gave them) and every size, each
 * strategy's mapper-stage time against the baseline's in the same run (the run's first strategy, per-batch in the
 * balance preset), and the crossover: the smallest size from which a strategy is faster than the baseline at that
 * size and every larger one, with the whole interval of the improvement above zero. Figures per slot are at full
 * scale: a run at data scale f had f times the dirty cache, as similarity asks, and is reported as the node it stands
 * for.
 */
public final class BalanceMap {
    /** One machine balance: per task slot, at full scale. */
    static final class Balance implements Comparable<Balance> {
        final String device;
        /** MB/s per slot, or +infinity for native storage. */
        final double writeMBps;
        /** GB of dirty cache per slot, or NaN where the kernel's own settings apply. */
        final double dirtyGB;

        Balance(String device, double writeMBps, double dirtyGB) {
            this.device = device;
            this.writeMBps = writeMBps;
            this.dirtyGB = dirtyGB;
        }

        static Balance of(JmhResults.Row row) {
            String device = row.param("device").isEmpty() ? DeviceSpec.NATIVE : row.param("device");
            DeviceSpec spec = DeviceSpec.parse("device", device);
            if (spec.isNative()) {
                return new Balance(device, Double.POSITIVE_INFINITY, Double.NaN);
            }
            int tasks = Integer.parseInt(row.param("tasks"));
            double scale = Double.parseDouble(row.param("scale"));
            DeviceProfile.Emulation e = spec.resolve(tasks, scale);
            return new Balance(device, e.writeBytesPerSecond / 1e6 / tasks, e.dirtyBytes / 1e9 / tasks / scale);
        }

        String label() {
            return Double.isInfinite(writeMBps) ? "native disk, the kernel's own dirty limits"
                    : String.format(Locale.ROOT, "%.0f MB/s and %.2f GB dirty cache per slot", writeMBps, dirtyGB);
        }

        String file() {
            return Double.isInfinite(writeMBps) ? "balance-native.png"
                    : String.format(Locale.ROOT, "balance-%.0fMBps-%.2fGB.png", writeMBps, dirtyGB);
        }

        @Override
        public int compareTo(Balance o) {
            int c = Double.compare(writeMBps, o.writeMBps);
            return c != 0 ? c : Double.compare(Double.isNaN(dirtyGB) ? 0 : dirtyGB, Double.isNaN(o.dirtyGB) ? 0
                    : o.dirtyGB);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Balance && compareTo((Balance) o) == 0;
        }

        @Override
        public int hashCode() {
            return Double.hashCode(writeMBps) * 31 + Double.hashCode(Double.isNaN(dirtyGB) ? 0 : dirtyGB);
        }
    }

    /** A strategy against the baseline at one size: the improvement (the baseline's time over the strategy's, minus 1). */
    static final class Cell {
        final double improvement;
        final double low;
        final double high;

        Cell(double improvement, double low, double high) {
            this.improvement = improvement;
            this.low = low;
            this.high = high;
        }

        boolean faster() {
            return low > 0; // false for NaN: no interval, no claim
        }
    }

    private BalanceMap() {}

    /** Writes balance.md and a chart per balance into {@code outDir}; returns the Markdown file. */
    public static Path write(List<JmhResults.Row> rows, Path outDir, String resultLink) throws IOException {
        Files.createDirectories(outDir);
        Map<Balance, Map<String, Map<String, JmhResults.Row>>> byBalance = new TreeMap<>();
        List<String> sizes = new ArrayList<>();
        List<String> strategies = new ArrayList<>();
        for (JmhResults.Row row : rows) {
            if (!row.isWave()) {
                continue;
            }
            String size = row.param("size");
            String strategy = row.param("strategy");
            if (!sizes.contains(size)) {
                sizes.add(size);
            }
            if (!strategies.contains(strategy)) {
                strategies.add(strategy);
            }
            byBalance.computeIfAbsent(Balance.of(row), b -> new LinkedHashMap<>())
                    .computeIfAbsent(size, s -> new LinkedHashMap<>()).put(strategy, row);
        }
        sizes.sort(Comparator.comparingLong(s -> DataSize.parse("size", s).bytes()));
        String baseline = SeedRun.baseline(rows, SeedRun.inPlanOrder(strategies));
        strategies.remove(baseline);
        StringBuilder md = new StringBuilder();
        md.append("# The crossover map\n\n");
        md.append("Each row: a machine balance (disk write bandwidth and dirty page cache per task slot, at full scale), "
                + "a size, " + baseline + "'s mapper stage (mean ± JMH's 99.9% error) and each strategy's against it in "
                + "the same run: the improvement (" + baseline + "'s time / the strategy's - 1, from the geometric means of "
                + "their "
                + "waves) with its 99% interval (Welch's t on the logarithms of the waves' times). The crossover is the "
                + "smallest size from which a strategy is faster with its whole interval above 0 at that size and every "
                + "larger one. Results: `" + resultLink + "`.\n\n");
        md.append("| balance per slot | size | " + baseline + " (ms) |");
        for (String s : strategies) {
            md.append(' ').append(s).append(" |");
        }
        md.append("\n|---|---|---|").append("---|".repeat(strategies.size())).append('\n');
        Map<Balance, Map<String, String>> crossovers = new LinkedHashMap<>();
        for (Map.Entry<Balance, Map<String, Map<String, JmhResults.Row>>> e : byBalance.entrySet()) {
            Balance balance = e.getKey();
            double[][] values = new double[strategies.size()][sizes.size()];
            double[][] lows = new double[strategies.size()][sizes.size()];
            double[][] highs = new double[strategies.size()][sizes.size()];
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
                for (int s = 0; s < strategies.size(); s++) {
                    JmhResults.Row row = bySize == null ? null : bySize.get(strategies.get(s));
                    Cell cell = base == null || row == null ? null : cell(base, row);
                    cells.get(strategies.get(s))[i] = cell;
                    values[s][i] = cell == null ? Double.NaN : 100 * cell.improvement;
                    lows[s][i] = cell == null ? Double.NaN : 100 * cell.low;
                    highs[s][i] = cell == null ? Double.NaN : 100 * cell.high;
                    md.append(' ').append(cell == null ? "-" : Double.isNaN(cell.low)
                            ? String.format(Locale.ROOT, "%+.1f%% (no interval: one wave)", 100 * cell.improvement)
                            : String.format(Locale.ROOT, "%+.1f%% [%+.1f, %+.1f]", 100 * cell.improvement,
                            100 * cell.low, 100 * cell.high)).append(" |");
                }
                md.append('\n');
            }
            Map<String, String> crossing = new LinkedHashMap<>();
            for (String s : strategies) {
                crossing.put(s, crossover(sizes, cells.get(s)));
            }
            crossovers.put(balance, crossing);
            chart(outDir.resolve(balance.file()), balance.label(), baseline, sizes, strategies, values, lows, highs);
        }
        md.append("\n## Crossover size by balance\n\n| balance per slot |");
        for (String s : strategies) {
            md.append(' ').append(s).append(" |");
        }
        md.append("\n|---|").append("---|".repeat(strategies.size())).append('\n');
        for (Map.Entry<Balance, Map<String, String>> e : crossovers.entrySet()) {
            md.append("| ").append(e.getKey().label()).append(" |");
            for (String s : strategies) {
                md.append(' ').append(e.getValue().get(s)).append(" |");
            }
            md.append('\n');
        }
        md.append("\n## Charts\n\n");
        for (Balance b : byBalance.keySet()) {
            md.append("![").append(b.label()).append("](").append(b.file()).append(")\n\n");
        }
        Path file = outDir.resolve("balance.md");
        Files.writeString(file, md.toString(), StandardCharsets.UTF_8);
        return file;
    }

    /** The confidence of the improvements' intervals. */
    static final double CONFIDENCE = 0.99;

    /**
     * The improvement of {@code row} over {@code base} (the baseline's time over the strategy's, minus 1: the ratio of
     * their geometric means), with a {@value #CONFIDENCE} interval from Welch's t on the logarithms of both runs' wave
     * times (a ratio's interval; the Welch-Satterthwaite degrees of freedom). JMH's own 99.9% error of three waves uses
     * t = 31.6 and says nothing of a ratio; waves of one device and size spread by a few percent, which this interval
     * keeps. Fewer than two waves on either side: no interval (NaN bounds), and no crossover is claimed from it.
     */
    static Cell cell(JmhResults.Row base, JmhResults.Row row) {
        // The strategy's time over the baseline's, inverted: the baseline's over the strategy's.
        Stats.Interval r = Stats.welch(base.runs, row.runs, CONFIDENCE);
        return new Cell(1 / r.ratio - 1, 1 / r.high - 1, 1 / r.low - 1);
    }

    /** The smallest size from which the strategy is faster at every larger size; "none" if never, "-" if unknown. */
    static String crossover(List<String> sizes, Cell[] cells) {
        String from = null;
        for (int i = sizes.size() - 1; i >= 0; i--) {
            if (cells[i] == null) {
                return from == null ? "-" : from;
            }
            if (!cells[i].faster()) {
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

    private static void chart(Path png, String title, String baseline, List<String> sizes, List<String> strategies,
                              double[][] values, double[][] lows, double[][] highs) throws IOException {
        CategoryChart chart = new CategoryChartBuilder().width(900).height(500).title(title)
                .xAxisTitle("data size per map task").yAxisTitle("improvement over " + baseline + " (%)").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        chart.getStyler().setPlotGridVerticalLinesVisible(false);
        chart.getStyler().setYAxisDecimalPattern("#,##0");
        for (int s = 0; s < strategies.size(); s++) {
            List<Double> y = new ArrayList<>();
            List<Double> e = new ArrayList<>();
            for (int i = 0; i < sizes.size(); i++) {
                double v = values[s][i];
                y.add(Double.isNaN(v) ? 0.0 : v);
                // XChart's whiskers are symmetric: the larger side of the interval, so none is understated.
                double half = Math.max(Math.abs(highs[s][i] - v), Math.abs(v - lows[s][i]));
                e.add(Double.isNaN(half) || Double.isInfinite(half) ? 0.0 : half);
            }
            chart.addSeries(strategies.get(s), sizes, y, e);
        }
        BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
