package dev.sluice.report;

import dev.sluice.core.input.DataSize;
import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.core.run.Metric;
import dev.sluice.spi.Bytes;
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
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * A run's strategies along one axis ({@code scripts/bench.sh --partitions LIST} or {@code --memory-limit LIST}): per
 * size and point of the axis, each strategy's mapper stage and its improvement over the baseline in the same
 * configuration (paired where the rows are), the strategies ranked, and the counters that say why (files open at
 * once, files created, write calls and their mean size, spilled bytes, peak memory); a chart per size of each
 * strategy's time against the axis. A strategy the plan left out of a point (more open files than the process may
 * open, a memory limit it refuses) has no row there.
 */
public final class AxisMap {
    /** One axis: its parameter, its name in words, how its points sort and read. */
    enum Axis {
        PARTITIONS(BenchmarkParam.PARTITIONS, "partitions", "partitions.md", "200"),
        MEMORY(BenchmarkParam.MEMORY_LIMIT, "memory limit", "memory.md", "none");

        final BenchmarkParam param;
        final String words;
        final String file;
        final String unset;

        Axis(BenchmarkParam param, String words, String file, String unset) {
            this.param = param;
            this.words = words;
            this.file = file;
            this.unset = unset;
        }

        String point(JmhResults.Row row) {
            String v = row.param(param);
            return v.isEmpty() ? unset : v;
        }

        /** Where the point lies on the axis: partitions as counted, a limit in bytes (none: the most). */
        double position(String point) {
            if (this == PARTITIONS) {
                return Double.parseDouble(point);
            }
            return point.equals("none") || point.equals("machine") ? Double.MAX_VALUE : Bytes.parse(point);
        }
    }

    private AxisMap() {}

    /**
     * Writes a page (and its charts) for every axis along which a strategy of {@code rows} ran at more than one point
     * (not where strategies merely differ: upstream's skip-merge runs with the machine's memory as its limit beside
     * the others' none).
     */
    public static List<Path> write(List<JmhResults.Row> rows, Path outDir, String resultLink) throws IOException {
        List<Path> written = new ArrayList<>();
        List<JmhResults.Row> waves = rows.stream().filter(JmhResults.Row::isWave).toList();
        for (Axis axis : Axis.values()) {
            Map<String, java.util.Set<String>> points = new LinkedHashMap<>();
            for (JmhResults.Row row : waves) {
                points.computeIfAbsent(row.param(BenchmarkParam.STRATEGY), s -> new java.util.HashSet<>())
                        .add(axis.point(row));
            }
            if (points.values().stream().anyMatch(p -> p.size() > 1)) {
                written.add(write(axis, waves, outDir, resultLink));
            }
        }
        return written;
    }

    static Path write(Axis axis, List<JmhResults.Row> rows, Path outDir, String resultLink) throws IOException {
        Files.createDirectories(outDir);
        // size -> point -> strategy -> row
        Map<String, Map<String, Map<String, JmhResults.Row>>> bySize = new TreeMap<>(Comparator.comparingLong(
                s -> DataSize.parse(BenchmarkParam.SIZE.key(), s).bytes()));
        List<String> strategies = new ArrayList<>();
        for (JmhResults.Row row : rows) {
            String strategy = row.param(BenchmarkParam.STRATEGY);
            if (!strategies.contains(strategy)) {
                strategies.add(strategy);
            }
            bySize.computeIfAbsent(row.param(BenchmarkParam.SIZE), s -> new TreeMap<>(Comparator.comparingDouble(
                    axis::position))).computeIfAbsent(axis.point(row), p -> new LinkedHashMap<>()).put(strategy, row);
        }
        String baseline = SeedRun.baseline(rows, SeedRun.inPlanOrder(strategies));
        List<String> others = new ArrayList<>(strategies);
        others.remove(baseline);
        StringBuilder md = new StringBuilder();
        md.append("# The strategies along the ").append(axis.words).append(" axis\n\n");
        md.append("Per size and ").append(axis.words).append(": each strategy's mapper stage (its waves' mean, ms, ± "
                + "JMH's 99.9% error) and, for the others, the improvement over " + baseline + " in the same "
                + "configuration (" + baseline + "'s time / the strategy's - 1) with its 99% interval (paired waves: "
                + "the geometric mean of the pairs' ratios, Student's t on their logarithms); where " + baseline
                + " did not run, the first strategy that did stands in, named; the ranking, fastest first; then the "
                + "counters of a wave per task (`io.*`). \"-\": the strategy did not run there (the "
                + "plan's header says why). Results: `" + resultLink + "`.\n\n");
        for (Map.Entry<String, Map<String, Map<String, JmhResults.Row>>> size : bySize.entrySet()) {
            md.append("## ").append(size.getKey()).append("\n\n| ").append(axis.words).append(" | ").append(baseline)
                    .append(" (ms) |");
            for (String s : others) {
                md.append(' ').append(s).append(" |");
            }
            md.append(" fastest first |\n|---|---|").append("---|".repeat(others.size())).append("---|\n");
            for (Map.Entry<String, Map<String, JmhResults.Row>> point : size.getValue().entrySet()) {
                Map<String, JmhResults.Row> at = point.getValue();
                JmhResults.Row base = at.get(baseline);
                // Where the baseline did not run (left out by the plan), the first strategy that did stands in.
                String stand = base != null ? null : others.stream().filter(at::containsKey).findFirst().orElse(null);
                JmhResults.Row against = base != null ? base : stand == null ? null : at.get(stand);
                md.append("| ").append(point.getKey()).append(" | ").append(base == null ? "-"
                        : String.format(Locale.ROOT, "%.0f ± %s", base.score, error(base))).append(" |");
                for (String s : others) {
                    JmhResults.Row row = at.get(s);
                    md.append(' ').append(row == null ? "-" : s.equals(stand) ? String.format(Locale.ROOT,
                            "%.0f ± %s (the others against it)", row.score, error(row))
                            : against == null ? String.format(Locale.ROOT, "%.0f ms", row.score)
                            : improvement(against, row) + (stand == null ? "" : " vs " + stand)).append(" |");
                }
                md.append(' ').append(ranking(at)).append(" |\n");
            }
            md.append('\n');
            counters(md, axis, size.getValue(), strategies);
            String png = "axis-" + axis.name().toLowerCase(Locale.ROOT) + "-" + size.getKey() + ".png";
            AxisChart.write(outDir.resolve(png), size.getKey() + ": mapper stage against " + axis.words, axis,
                    size.getValue(), strategies);
            md.append("![").append(size.getKey()).append("](").append(png).append(")\n\n");
        }
        Path file = outDir.resolve(axis.file);
        Files.writeString(file, md.toString(), StandardCharsets.UTF_8);
        return file;
    }

    private static String improvement(JmhResults.Row base, JmhResults.Row row) {
        BalanceMap.Cell cell = BalanceMap.cell(base, row);
        return Double.isNaN(cell.low) ? String.format(Locale.ROOT, "%.0f ms, %+.1f%% (one wave)", row.score,
                100 * cell.improvement) : String.format(Locale.ROOT, "%.0f ms, %+.1f%% [%+.1f, %+.1f]", row.score,
                100 * cell.improvement, 100 * cell.low, 100 * cell.high);
    }

    private static String ranking(Map<String, JmhResults.Row> at) {
        List<JmhResults.Row> rows = new ArrayList<>(at.values());
        rows.sort(Comparator.comparingDouble(r -> r.score));
        List<String> names = new ArrayList<>();
        for (JmhResults.Row r : rows) {
            names.add(r.param(BenchmarkParam.STRATEGY));
        }
        return String.join(" < ", names);
    }

    /** Per strategy and point, what a wave did to storage and memory, per task. */
    private static void counters(StringBuilder md, Axis axis, Map<String, Map<String, JmhResults.Row>> points,
                                 List<String> strategies) {
        md.append("| strategy | ").append(axis.words).append(" | files open at once (peak, all tasks) | files "
                + "created | write calls | mean write (KiB) | spill files | spilled (MiB) | peak memory (MiB) |\n"
                + "|---|---|---|---|---|---|---|---|---|\n");
        for (String s : strategies) {
            for (Map.Entry<String, Map<String, JmhResults.Row>> point : points.entrySet()) {
                JmhResults.Row row = point.getValue().get(s);
                if (row == null) {
                    continue;
                }
                md.append("| ").append(s).append(" | ").append(point.getKey()).append(" | ")
                        .append(fmt(row, Metric.IO_PEAK_OPEN_FILES, v -> v, "%.0f")).append(" | ")
                        .append(fmt(row, Metric.IO_FILES_CREATED, v -> v, "%.0f")).append(" | ")
                        .append(fmt(row, Metric.IO_WRITE_CALLS, v -> v, "%.0f")).append(" | ")
                        .append(fmt(row, Metric.IO_MEAN_WRITE_CALL_BYTES, v -> v / Bytes.KiB, "%.1f")).append(" | ")
                        .append(fmt(row, Metric.IO_SPILL_FILES, v -> v, "%.1f")).append(" | ")
                        .append(fmt(row, Metric.IO_SPILLED_BYTES, v -> v / Bytes.MiB, "%.0f")).append(" | ")
                        .append(fmt(row, Metric.IO_PEAK_BUFFERED_BYTES, v -> v / Bytes.MiB, "%.0f")).append(" |\n");
            }
        }
        md.append('\n');
    }

    private static String fmt(JmhResults.Row row, Metric metric, ToDoubleFunction<Double> scale, String format) {
        OptionalDouble v = row.metric(metric);
        return v.isEmpty() ? "-" : String.format(Locale.ROOT, format, scale.applyAsDouble(v.getAsDouble()));
    }

    private static String error(JmhResults.Row row) {
        return Double.isNaN(row.error) ? "none (one wave)" : String.format(Locale.ROOT, "%.0f", row.error);
    }
}
