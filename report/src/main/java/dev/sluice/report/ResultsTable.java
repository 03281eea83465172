package dev.sluice.report;

import dev.sluice.core.input.DataSize;
import dev.sluice.core.run.BenchmarkName;
import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.core.run.Metric;
import dev.sluice.core.strategy.StrategySets;
import dev.sluice.spi.Bytes;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Prints a JMH result of the shuffle-write matrix as a Markdown table: per size and strategy, the wave's time with its
 * error, MB/s committed per wave, time relative to the raw-write reference of the same size, amplification, write
 * calls per MiB and the kernel's write_bytes and cancelled_write_bytes per MiB committed.
 *
 * <p>{@code java -cp report/target/sluice-report.jar dev.sluice.report.ResultsTable jmh/target/jmh-result.json}
 */
public final class ResultsTable {
    private ResultsTable() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 1 || args[0].startsWith("-")) {
            System.err.println("usage: ResultsTable JMH_RESULT.json");
            System.exit(2);
        }
        Path json = Paths.get(args[0]);
        if (!Files.isRegularFile(json)) {
            System.err.println("ResultsTable: " + json + " does not exist");
            System.exit(2);
        }
        print(JmhResults.read(json), System.out);
    }

    static void print(List<JmhResults.Row> rows, PrintStream out) {
        List<JmhResults.Row> writes = new ArrayList<>();
        for (JmhResults.Row r : rows) {
            if (r.isWave()) {
                writes.add(r);
            }
        }
        writes.sort(Comparator.comparing((JmhResults.Row r) -> sizeOrder(r.param(BenchmarkParam.SIZE)))
                .thenComparing(r -> strategyOrder(r.param(BenchmarkParam.STRATEGY))));
        out.println("| size | strategy | ms per wave (± error) | MB/s | vs raw write | amplification | write calls/MiB | write_bytes MiB/MiB | cancelled MiB/MiB | peak memory MiB |");
        out.println("|---|---|---|---|---|---|---|---|---|---|");
        for (JmhResults.Row r : writes) {
            Optional<JmhResults.Row> raw = rows.stream()
                    .filter(x -> x.isRawWrite() && sameInput(x, r)).findFirst();
            double committed = r.metric(Metric.IO_COMMITTED_BYTES).orElse(Double.NaN)
                    * r.metric(Metric.WAVE_TASKS).orElse(1);
            out.printf(Locale.ROOT, "| %s | %s | %s | %.0f | %s | %s | %s | %s | %s | %s |%n",
                    r.param(BenchmarkParam.SIZE), r.param(BenchmarkParam.STRATEGY), ms(r), committed / 1e6 / (r.score / 1000),
                    raw.map(x -> String.format(Locale.ROOT, "%.1fx", r.score / x.score)).orElse("n/a"),
                    fmt(r.metric(Metric.IO_AMPLIFICATION), "%.2f"),
                    fmt(r.metric(Metric.IO_WRITE_CALLS_PER_MIB), "%.1f"),
                    fmt(div(r.metric(Metric.PROC_WRITE_BYTES_PER_MIB), Bytes.MiB), "%.2f"),
                    fmt(div(r.metric(Metric.PROC_CANCELLED_WRITE_BYTES_PER_MIB), Bytes.MiB), "%.2f"),
                    fmt(div(r.metric(Metric.IO_PEAK_BUFFERED_BYTES), Bytes.MiB), "%.0f"));
        }
        List<JmhResults.Row> raws = new ArrayList<>();
        for (JmhResults.Row r : rows) {
            if (r.is(BenchmarkName.RAW_WRITE)) {
                raws.add(r);
            }
        }
        raws.sort(Comparator.comparing(r -> sizeOrder(r.param(BenchmarkParam.SIZE))));
        if (!raws.isEmpty()) {
            out.println();
            out.println("| size | raw write ms (± error) | MB/s |");
            out.println("|---|---|---|");
            for (JmhResults.Row r : raws) {
                double bytes = r.metric(Metric.IO_COMMITTED_BYTES).orElse(Double.NaN)
                        * r.metric(Metric.WAVE_TASKS).orElse(1);
                // A paced write (the floor's, after the raw write) says its pace: its time is not the storage's alone.
                String size = r.isPacedWrite() ? r.param(BenchmarkParam.SIZE) + ", paced at " + r.param(BenchmarkParam.PACE)
                        + " B/s per thread" : r.param(BenchmarkParam.SIZE);
                out.printf(Locale.ROOT, "| %s | %s | %.0f |%n", size, ms(r), bytes / 1e6 / (r.score / 1000));
            }
        }
    }

    private static boolean sameInput(JmhResults.Row a, JmhResults.Row b) {
        for (String p : List.of(BenchmarkParam.SIZE.key(), BenchmarkParam.SCALE.key(), BenchmarkParam.TASKS.key(), BenchmarkParam.PARTITIONS.key(), BenchmarkParam.BATCHES.key(), BenchmarkParam.BATCH_BYTES.key(), BenchmarkParam.ROWS_PER_BATCH.key(), BenchmarkParam.CODEC.key(), BenchmarkParam.KEYS.key(), BenchmarkParam.PARTITIONING.key(), BenchmarkParam.SEED.key(), BenchmarkParam.SYNC.key())) {
            if (!a.param(p).equals(b.param(p))) {
                return false;
            }
        }
        return true;
    }

    /** A score in ms with its 99.9% error, or with "no error" and why (one measured wave). */
    static String ms(JmhResults.Row r) {
        return Double.isNaN(r.error) ? String.format(Locale.ROOT, "%.0f (no error: %s)", r.score,
                JmhResults.waves(r.samples)) : String.format(Locale.ROOT, "%.0f ± %.0f", r.score, r.error);
    }

    static OptionalDouble div(OptionalDouble v, double by) {
        return v.isPresent() ? OptionalDouble.of(v.getAsDouble() / by) : OptionalDouble.empty();
    }

    static String fmt(OptionalDouble v, String format) {
        return v.isPresent() ? String.format(Locale.ROOT, format, v.getAsDouble()) : "n/a";
    }

    static int sizeOrder(String size) {
        for (DataSize s : DataSize.values()) {
            if (s.label().equals(size)) {
                return s.ordinal();
            }
        }
        return Integer.MAX_VALUE;
    }

    private static int strategyOrder(String strategy) {
        int i = StrategySets.SEED.indexOf(strategy);
        return i < 0 ? Integer.MAX_VALUE : i;
    }
}
