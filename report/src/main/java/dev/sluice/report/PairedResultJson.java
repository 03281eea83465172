package dev.sluice.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.core.run.Metric;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * One strategy's JMH result made from a paired configuration's chunks ({@link PairedRun#rows}), as JMH writes one:
 * each chunk a fork, its score and error from its waves, every secondary result split alike.
 */
final class PairedResultJson {
    private PairedResultJson() {}

    /**
     * The JMH result of strategy {@code s} of {@code strategies}, from its series of every chunk ({@code chunks}, in
     * chunk order) of a configuration paired in {@code design}.
     */
    static ObjectNode row(List<PairedRun.Series> chunks, int s, List<String> strategies, String design) {
        ObjectMapper json = new ObjectMapper();
        ObjectNode first = chunks.get(0).result;
        ObjectNode row = first.deepCopy();
        ObjectNode params = (ObjectNode) row.path("params");
        List<String> limits = Arrays.asList(params.path(BenchmarkParam.MEMORY_LIMIT.key()).asText("none")
                .split("\\+", -1));
        params.put(BenchmarkParam.STRATEGY.key(), strategies.get(s));
        params.put(BenchmarkParam.STRATEGIES.key(), String.join("+", strategies));
        params.put(BenchmarkParam.MEMORY_LIMIT.key(),
                limits.size() == strategies.size() ? limits.get(s) : limits.get(0));
        params.put(PairedRun.PAIRING, design);
        // Fields sorted as JMH sorts them, so that tables list parameters alike.
        ObjectNode sorted = json.createObjectNode();
        new TreeMap<String, JsonNode>(toMap(params)).forEach(sorted::set);
        row.set("params", sorted);
        row.put("forks", chunks.size());
        row.put("measurementIterations", chunks.get(0).primary.size());
        int warmUps = first.path("warmupIterations").asInt();
        row.put("warmupIterations", design.equals(PairedRun.ROUNDS) ? warmUps / strategies.size() : warmUps);
        List<List<Double>> primary = new ArrayList<>();
        chunks.forEach(c -> primary.add(c.primary));
        row.set("primaryMetric", metric(json, (ObjectNode) first.path("primaryMetric"), primary, "avg"));
        ObjectNode secondary = json.createObjectNode();
        first.path("secondaryMetrics").fields().forEachRemaining(e -> {
            List<List<Double>> forks = new ArrayList<>();
            for (PairedRun.Series c : chunks) {
                List<Double> v = c.secondary.get(e.getKey());
                if (v == null) {
                    return;
                }
                forks.add(v);
            }
            String policy = Metric.aggregationOf(e.getKey()).name().toLowerCase(Locale.ROOT);
            secondary.set(e.getKey(), metric(json, (ObjectNode) e.getValue(), forks, policy));
        });
        row.set("secondaryMetrics", secondary);
        return row;
    }

    private static Map<String, JsonNode> toMap(ObjectNode node) {
        Map<String, JsonNode> map = new LinkedHashMap<>();
        node.fields().forEachRemaining(e -> map.put(e.getKey(), e.getValue()));
        return map;
    }

    /** A metric of {@code forks}' waves as JMH writes one: score, error (99.9%), interval, percentiles, raw data. */
    private static ObjectNode metric(ObjectMapper json, ObjectNode template, List<List<Double>> forks,
                                     String policy) {
        List<Double> all = new ArrayList<>();
        forks.forEach(all::addAll);
        double score;
        switch (policy) {
            case "max":
                score = all.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
                break;
            case "sum":
                score = all.stream().mapToDouble(Double::doubleValue).sum();
                break;
            default:
                score = all.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
        }
        double error = policy.equals("avg") ? JmhResults.error(all) : Double.NaN;
        ObjectNode m = json.createObjectNode();
        number(m, "score", score);
        number(m, "scoreError", error);
        ArrayNode confidence = m.putArray("scoreConfidence");
        if (Double.isNaN(error)) {
            confidence.add(score).add(score);
        } else {
            confidence.add(score - error).add(score + error);
        }
        ObjectNode percentiles = m.putObject("scorePercentiles");
        double[] sorted = all.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        for (String p : List.of("0.0", "50.0", "90.0", "95.0", "99.0", "99.9", "99.99", "99.999", "99.9999",
                "100.0")) {
            percentiles.put(p, percentile(sorted, Double.parseDouble(p)));
        }
        m.put("scoreUnit", template.path("scoreUnit").asText());
        ArrayNode raw = m.putArray("rawData");
        for (List<Double> fork : forks) {
            ArrayNode f = raw.addArray();
            fork.forEach(f::add);
        }
        return m;
    }

    /** JMH writes a NaN as the string "NaN". */
    private static void number(ObjectNode node, String field, double value) {
        if (Double.isNaN(value)) {
            node.put(field, "NaN");
        } else {
            node.put(field, value);
        }
    }

    /** The p-th percentile as JMH computes it (Apache Commons' estimate, linear between ranks). */
    private static double percentile(double[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        if (p <= 0) {
            return sorted[0];
        }
        if (p >= 100) {
            return sorted[sorted.length - 1];
        }
        return new org.apache.commons.math3.stat.descriptive.rank.Percentile().evaluate(sorted, p);
    }
}
