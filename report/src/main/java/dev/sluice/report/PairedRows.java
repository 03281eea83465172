package dev.sluice.report;

import dev.sluice.core.run.BenchmarkParam;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The rows of one paired configuration in a JMH result ({@link PairedRun#rows}): each strategy's row has its waves in
 * pair order, so that the waves at the same position in two rows of the configuration are a pair. Finds a row's
 * partners and the paired ratio between two of them.
 */
final class PairedRows {
    private PairedRows() {}

    /** A row's parameters without what differs between the strategies of one paired configuration. */
    private static Map<String, String> configuration(JmhResults.Row row) {
        Map<String, String> params = new TreeMap<>(row.params);
        params.remove(BenchmarkParam.STRATEGY.key());
        params.remove(BenchmarkParam.MEMORY_LIMIT.key());
        return params;
    }

    /** The row of {@code strategy} in {@code row}'s paired configuration; null if {@code row} is not paired or none. */
    static JmhResults.Row partner(JmhResults.Row row, String strategy, List<JmhResults.Row> rows) {
        if (row.pairing().isEmpty()) {
            return null;
        }
        Map<String, String> configuration = configuration(row);
        for (JmhResults.Row r : rows) {
            if (r.benchmark.equals(row.benchmark) && r.param(BenchmarkParam.STRATEGY).equals(strategy)
                    && configuration(r).equals(configuration)) {
                return r;
            }
        }
        return null;
    }

    /** The baseline of a paired row's configuration: the first of its strategies. */
    static String baseline(JmhResults.Row row) {
        return row.param(BenchmarkParam.STRATEGIES).split("\\+", -1)[0];
    }

    /** A paired row's ratio to its configuration's baseline; null if not paired, the baseline itself, or unpaired. */
    static PairedRatio toBaseline(JmhResults.Row row, List<JmhResults.Row> rows) {
        if (row.pairing().isEmpty() || row.param(BenchmarkParam.STRATEGY).equals(baseline(row))) {
            return null;
        }
        JmhResults.Row base = partner(row, baseline(row), rows);
        return base == null ? null : of(row.runs, base.runs);
    }

    /** The paired ratio of two rows' waves of a figure; null where they do not pair up (no waves, other counts). */
    static PairedRatio of(List<Double> runs, List<Double> baseRuns) {
        if (runs.isEmpty() || runs.size() != baseRuns.size()) {
            return null;
        }
        return PairedRatio.of(runs, baseRuns);
    }

    /** "0.812 [0.771, 0.855], 6 pairs" or "0.812 (no interval: one pair)". */
    static String text(PairedRatio r) {
        Objects.requireNonNull(r);
        return r.hasInterval() ? String.format(Locale.ROOT, "%.3f [%.3f, %.3f], %d pairs", r.ratio, r.low, r.high,
                r.pairs()) : String.format(Locale.ROOT, "%.3f (no interval: one pair)", r.ratio);
    }
}
