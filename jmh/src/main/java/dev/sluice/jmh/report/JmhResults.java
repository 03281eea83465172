package dev.sluice.jmh.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;

/** The results of a JMH run ({@code -rf json}), one row per benchmark and parameter set. */
public final class JmhResults {
    /** One benchmark run: its name, parameters, score with error, and secondary metrics by key. */
    public static final class Row {
        public final String benchmark;
        public final Map<String, String> params;
        public final double score;
        public final double error;
        public final String unit;
        public final int samples;
        /** Every measured run's score, all forks together. */
        public final List<Double> runs;
        private final Map<String, Double> secondary;
        private final Map<String, Double> secondaryErrors;
        private final Map<String, List<Double>> secondaryRuns;

        Row(String benchmark, Map<String, String> params, double score, double error, String unit, List<Double> runs,
            Map<String, Double> secondary, Map<String, Double> secondaryErrors, Map<String, List<Double>> secondaryRuns) {
            this.benchmark = benchmark;
            this.params = params;
            this.score = score;
            this.error = error;
            this.unit = unit;
            this.samples = runs.size();
            this.runs = runs;
            this.secondary = secondary;
            this.secondaryErrors = secondaryErrors;
            this.secondaryRuns = secondaryRuns;
        }

        /** JMH's 99.9% error of a secondary result; NaN where JMH gives none. */
        public double metricError(String key) {
            return secondaryErrors.getOrDefault(key, Double.NaN);
        }

        /** Every measured run's value of a secondary result. */
        public List<Double> metricRuns(String key) {
            return secondaryRuns.getOrDefault(key, List.of());
        }

        /** The error as a share of the score. */
        public double relativeError() {
            return error / score;
        }

        public String param(String name) {
            return params.getOrDefault(name, "");
        }

        public OptionalDouble metric(String key) {
            Double v = secondary.get(key);
            return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
        }

        /** The simple name of the benchmark class. */
        public String benchmarkClass() {
            String[] parts = benchmark.split("\\.");
            return parts.length >= 2 ? parts[parts.length - 2] : benchmark;
        }
    }

    private JmhResults() {}

    /** A row of one strategy's score and error and nothing else, for tests of the statistics. */
    static Row readRow(String strategy, double score, double error) {
        return new Row("ShuffleWriteBenchmark.wave", Map.of("strategy", strategy), score, error, "ms/op",
                List.of(score), Map.of(), Map.of(), Map.of());
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
            Map<String, Double> secondaryErrors = new TreeMap<>();
            Map<String, List<Double>> secondaryRuns = new TreeMap<>();
            b.path("secondaryMetrics").fields().forEachRemaining(e -> {
                secondary.put(e.getKey(), e.getValue().path("score").asDouble());
                secondaryErrors.put(e.getKey(), e.getValue().path("scoreError").asDouble(Double.NaN));
                List<Double> values = new ArrayList<>();
                for (JsonNode fork : e.getValue().path("rawData")) {
                    fork.forEach(v -> values.add(v.asDouble()));
                }
                secondaryRuns.put(e.getKey(), Collections.unmodifiableList(values));
            });
            double error = primary.path("scoreError").asDouble(Double.NaN);
            List<Double> runs = new ArrayList<>();
            for (JsonNode fork : primary.path("rawData")) {
                fork.forEach(v -> runs.add(v.asDouble()));
            }
            rows.add(new Row(b.path("benchmark").asText(), Collections.unmodifiableMap(params),
                    primary.path("score").asDouble(), error, primary.path("scoreUnit").asText(),
                    Collections.unmodifiableList(runs), secondary, secondaryErrors, secondaryRuns));
        }
        return rows;
    }
}
