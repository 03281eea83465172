package dev.sluice.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.run.BenchmarkName;
import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.core.run.Metric;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;

/**
 * The results of a JMH run ({@code -rf json}), one row per benchmark and parameter set. Errors are computed here
 * from the measured runs ({@code rawData}), as JMH computes its 99.9% error for three runs or more; JMH gives none for
 * two ({@code "NaN"}), which are enough for one. With a single run there is no error.
 */
public final class JmhResults {
    /** The confidence of every error: JMH's 99.9%. */
    public static final double CONFIDENCE = 0.999;

    /** RawWriteBenchmark's value of its threads' pace ({@link BenchmarkParam#PACE}) for none. */
    static final String UNPACED = "none";

    /** One benchmark run: its name, parameters, score with error, and secondary metrics by key. */
    public static final class Row {
        public final String benchmark;
        public final Map<String, String> params;
        public final double score;
        /** The 99.9% error of the score, from its runs; NaN with fewer than two. */
        public final double error;
        public final String unit;
        /** How many measured runs the score is the mean of. */
        public final int samples;
        /** Every measured run's score, all forks together. */
        public final List<Double> runs;
        private final Map<String, Double> secondary;
        private final Map<String, List<Double>> secondaryRuns;

        Row(String benchmark, Map<String, String> params, double score, String unit, List<Double> runs,
            Map<String, Double> secondary, Map<String, List<Double>> secondaryRuns) {
            this.benchmark = benchmark;
            this.params = params;
            this.score = score;
            this.error = error(runs);
            this.unit = unit;
            this.samples = runs.size();
            this.runs = runs;
            this.secondary = secondary;
            this.secondaryRuns = secondaryRuns;
        }

        /** A secondary result's value: its score, the mean over its runs; empty where the row has none. */
        public OptionalDouble metric(Metric metric) {
            return metric(metric.key());
        }

        /** Every measured run's value of a secondary result. */
        public List<Double> metricRuns(Metric metric) {
            return metricRuns(metric.key());
        }

        /** Whether the row is a result of the benchmark class {@code name}. */
        public boolean is(BenchmarkName name) {
            return benchmarkClass().equals(name.simpleName());
        }

        /** The 99.9% error of a secondary result's mean, from its runs; NaN with fewer than two. */
        public double metricError(String key) {
            return error(metricRuns(key));
        }

        /** Every measured run's value of a secondary result. */
        public List<Double> metricRuns(String key) {
            return secondaryRuns.getOrDefault(key, List.of());
        }

        /** The error as a share of the score. */
        public double relativeError() {
            return error / score;
        }

        /** The value of JMH parameter {@code p}; empty if the row has none. */
        public String param(BenchmarkParam p) {
            return param(p.key());
        }

        /** The value of the JMH parameter named {@code name}, as the result names it; empty if none. */
        public String param(String name) {
            return params.getOrDefault(name, "");
        }

        public OptionalDouble metric(String key) {
            Double v = secondary.get(key);
            return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
        }

        /**
         * Whether the row is a wave of one strategy: a ShuffleWriteBenchmark result, or one strategy's waves of a
         * paired run (PairedWaveBenchmark, split by strategy: {@link PairedRun#rows}).
         */
        public boolean isWave() {
            return is(BenchmarkName.SHUFFLE_WRITE) || is(BenchmarkName.PAIRED_WAVE) && !param(BenchmarkParam.STRATEGY).isEmpty();
        }

        /** A raw write as fast as the storage takes it: no {@code pace} parameter (results before it) or none. */
        public boolean isRawWrite() {
            return is(BenchmarkName.RAW_WRITE) && !isPacedWrite();
        }

        /** A raw write whose threads wrote no faster than a {@code pace} (the floor's paced write, {@link Floor}). */
        public boolean isPacedWrite() {
            return is(BenchmarkName.RAW_WRITE) && !param(BenchmarkParam.PACE).isEmpty() && !param(BenchmarkParam.PACE).equals(UNPACED);
        }

        /** The paired design the row's waves were measured in ({@code rounds}, {@code forks}), or empty. */
        public String pairing() {
            return param(PairedRun.PAIRING);
        }

        /** The simple name of the benchmark class. */
        public String benchmarkClass() {
            String[] parts = benchmark.split("\\.");
            return parts.length >= 2 ? parts[parts.length - 2] : benchmark;
        }
    }

    private JmhResults() {}

    /** A row of one strategy's measured runs and nothing else, for tests of the statistics. */
    static Row readRow(String strategy, List<Double> runs) {
        double mean = runs.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
        return new Row("ShuffleWriteBenchmark.wave", Map.of(BenchmarkParam.STRATEGY.key(), strategy), mean, "ms/op", runs, Map.of(),
                Map.of());
    }

    public static List<Row> read(Path json) throws IOException {
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        if (root == null || !root.isArray()) {
            throw new IOException(json + " is not a JMH JSON result (an array of benchmarks)");
        }
        List<Row> rows = new ArrayList<>();
        for (JsonNode b : root) {
            Map<String, String> params = new TreeMap<>();
            b.path("params").fields().forEachRemaining(e -> params.put(e.getKey(), e.getValue().asText()));
            JsonNode primary = b.path("primaryMetric");
            Map<String, Double> secondary = new TreeMap<>();
            Map<String, List<Double>> secondaryRuns = new TreeMap<>();
            b.path("secondaryMetrics").fields().forEachRemaining(e -> {
                secondary.put(e.getKey(), e.getValue().path("score").asDouble());
                List<Double> values = new ArrayList<>();
                for (JsonNode fork : e.getValue().path("rawData")) {
                    fork.forEach(v -> values.add(v.asDouble()));
                }
                secondaryRuns.put(e.getKey(), Collections.unmodifiableList(values));
            });
            List<Double> runs = new ArrayList<>();
            for (JsonNode fork : primary.path("rawData")) {
                fork.forEach(v -> runs.add(v.asDouble()));
            }
            rows.add(new Row(b.path("benchmark").asText(), Collections.unmodifiableMap(params),
                    primary.path("score").asDouble(), primary.path("scoreUnit").asText(),
                    Collections.unmodifiableList(runs), secondary, secondaryRuns));
        }
        return rows;
    }

    /**
     * The 99.9% error of the mean of {@code runs}, as JMH computes it (Student's t for their count times the
     * standard error); NaN for fewer than two runs, which have no spread to estimate it from.
     */
    public static double error(List<Double> runs) {
        return Stats.error(runs, CONFIDENCE);
    }

    /** How a count of measured runs reads: "one wave", "2 waves". */
    public static String waves(int n) {
        return n == 1 ? "one wave" : n + " waves";
    }
}
