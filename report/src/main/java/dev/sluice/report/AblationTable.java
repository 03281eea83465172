package dev.sluice.report;

import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.core.run.Metric;
import dev.sluice.core.strategy.StrategySets;
import dev.sluice.spi.Bytes;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * docs/tuning.md's ablation: for every codec and size of a run, each strategy's wave time with its error, its
 * throughput as a share of {@code ideal}'s (the pipeline's limit, measured in the same run), its time against the raw
 * write's, and what it did to get there (amplification, write calls per MiB, peak memory), with the command that
 * measures that row alone.
 */
final class AblationTable {
    private AblationTable() {}

    static void print(List<JmhResults.Row> rows, PrintStream out) {
        TreeSet<String> groups = new TreeSet<>();
        for (JmhResults.Row r : rows) {
            if (r.isWave()) {
                groups.add(r.param(BenchmarkParam.CODEC) + "|" + ResultsTable.sizeOrder(r.param(BenchmarkParam.SIZE)) + "|" + r.param(BenchmarkParam.SIZE));
            }
        }
        for (String group : groups) {
            String[] g = group.split("\\|");
            String codec = g[0];
            String size = g[2];
            List<JmhResults.Row> writes = new ArrayList<>();
            JmhResults.Row ideal = null;
            JmhResults.Row raw = null;
            for (JmhResults.Row r : rows) {
                if (!r.param(BenchmarkParam.CODEC).equals(codec) || !r.param(BenchmarkParam.SIZE).equals(size)) {
                    continue;
                }
                if (r.isRawWrite()) {
                    raw = r;
                } else if (r.isWave()) {
                    writes.add(r);
                    ideal = r.param(BenchmarkParam.STRATEGY).equals("ideal") ? r : ideal;
                }
            }
            writes.sort(Comparator.comparing(r -> order(r.param(BenchmarkParam.STRATEGY))));
            JmhResults.Row first = writes.get(0);
            out.printf(Locale.ROOT, "### %s, %s (%s tasks, scale %s, %.0f batches and %.0f MB of input per task)%n%n",
                    size, codec, first.param(BenchmarkParam.TASKS), first.param(BenchmarkParam.SCALE),
                    first.metric(Metric.WAVE_BATCHES_PER_TASK).orElse(Double.NaN),
                    first.metric(Metric.WAVE_INPUT_BYTES_PER_TASK).orElse(Double.NaN) / 1e6);
            out.println("| strategy | ms per wave (± error) | share of ideal's throughput | vs raw write | amplification "
                    + "| write calls/MiB | peak memory MiB | command |");
            out.println("|---|---|---|---|---|---|---|---|");
            for (JmhResults.Row r : writes) {
                out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | `%s` |%n", r.param(BenchmarkParam.STRATEGY),
                        ResultsTable.ms(r), ideal == null ? "n/a" : ratio(ideal, r),
                        raw == null ? "n/a" : String.format(Locale.ROOT, "%.1fx", r.score / raw.score),
                        ResultsTable.fmt(r.metric(Metric.IO_AMPLIFICATION), "%.2f"),
                        ResultsTable.fmt(r.metric(Metric.IO_WRITE_CALLS_PER_MIB), "%.1f"),
                        ResultsTable.fmt(ResultsTable.div(r.metric(Metric.IO_PEAK_BUFFERED_BYTES), Bytes.MiB), "%.0f"),
                        command(r, "--strategies " + quote(r.param(BenchmarkParam.STRATEGY))));
            }
            if (raw != null) {
                out.printf(Locale.ROOT, "| raw write | %s | %s | 1.0x | %s | %s | | every run's %s-raw |%n",
                        ResultsTable.ms(raw), ideal == null ? "n/a" : ratio(ideal, raw),
                        ResultsTable.fmt(raw.metric(Metric.IO_AMPLIFICATION), "%.2f"),
                        ResultsTable.fmt(raw.metric(Metric.IO_WRITE_CALLS_PER_MIB), "%.1f"),
                        size);
            }
            out.println();
        }
    }

    /** {@code ideal}'s time over {@code r}'s, with the two relative errors combined. */
    private static String ratio(JmhResults.Row ideal, JmhResults.Row r) {
        double share = ideal.score / r.score;
        double error = share * Math.hypot(ideal.error / ideal.score, r.error / r.score);
        return Double.isNaN(error) ? String.format(Locale.ROOT, "%.0f%% (no error: one wave)", 100 * share)
                : String.format(Locale.ROOT, "%.0f%% ± %.0f%%", 100 * share, 100 * error);
    }

    private static String command(JmhResults.Row r, String strategies) {
        return "scripts/bench.sh --preset tuning --codec " + r.param(BenchmarkParam.CODEC) + " --sizes " + r.param(BenchmarkParam.SIZE) + " "
                + strategies;
    }

    private static String quote(String spec) {
        return spec.contains(":") ? "'" + spec + "'" : spec;
    }

    private static int order(String strategy) {
        int i = StrategySets.TUNING.indexOf(strategy);
        return i < 0 ? Integer.MAX_VALUE : i;
    }
}
