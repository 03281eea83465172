package dev.sluice.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.core.run.Metric;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * One configuration of the network boundary's link map ({@link NetworkMap}): a link, a shape, a codec, read back from
 * its {@code PairedBoundaryBenchmark} result with each mode's times, its counters and the modes' paired ratio.
 */
final class LinkMapPoint {
    private static final List<Metric> COUNTERS = List.of(Metric.NET_BYTES_COPIED, Metric.NET_MESSAGES,
            Metric.NET_BATCHES_RECEIVED, Metric.NET_PROC_SYSCW, Metric.NET_LINK_WAIT_MILLIS, Metric.NET_WIRE_BYTES,
            Metric.QUERY_READ_MILLIS);

    String link;
    double rateMbit;
    double measuredMbit;
    int inputRows;
    int targetRows;
    String codec;
    List<String> modes;
    long rows;
    /** Per mode: its map outputs' times (ms), by round. */
    final Map<Integer, Map<Integer, Double>> times = new TreeMap<>();
    /** Per mode: the mean of each counter over its map outputs. */
    final Map<Integer, Map<Metric, Double>> counters = new TreeMap<>();
    PairedRatio ratio;

    private LinkMapPoint() {}

    String shape() {
        return String.format(Locale.ROOT, "%,d to %,d rows", inputRows, targetRows);
    }

    /** Every configuration in the {@code PairedBoundaryBenchmark} results of {@code jsons}, by shape, codec, rate. */
    static List<LinkMapPoint> read(List<Path> jsons) throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        List<LinkMapPoint> points = new ArrayList<>();
        for (Path json : jsons) {
            for (JsonNode result : mapper.readTree(json.toFile())) {
                if (!result.path("benchmark").asText().contains(NetworkMap.BENCHMARK)) {
                    continue;
                }
                points.add(point(result));
            }
        }
        points.sort(Comparator.comparing((LinkMapPoint p) -> p.inputRows).thenComparing(p -> p.codec)
                .thenComparingDouble(p -> p.measuredMbit));
        return points;
    }

    private static LinkMapPoint point(JsonNode result) {
        JsonNode params = result.path("params");
        LinkMapPoint p = new LinkMapPoint();
        p.link = params.path(BenchmarkParam.LINK.key()).asText();
        p.inputRows = params.path(BenchmarkParam.INPUT_ROWS.key()).asInt();
        p.targetRows = params.path(BenchmarkParam.TARGET_ROWS.key()).asInt();
        p.codec = params.path(BenchmarkParam.CODEC.key()).asText();
        p.modes = List.of(params.path(BenchmarkParam.MODES.key()).asText().split("\\+"));
        JsonNode secondary = result.path("secondaryMetrics");
        p.rateMbit = secondary.path(Metric.LINK_RATE_MBIT.key()).path("score").asDouble();
        p.measuredMbit = secondary.path(Metric.LINK_MEASURED_MBIT.key()).path("score").asDouble();
        p.rows = Math.round(secondary.path(Metric.NET_ROWS_VERIFIED.key()).path("score").asDouble());
        List<Double> primary = flat(result.path("primaryMetric").path("rawData"));
        List<Double> mode = flat(secondary.path(Metric.PAIR_MODE.key()).path("rawData"));
        List<Double> round = flat(secondary.path(Metric.PAIR_ROUND.key()).path("rawData"));
        if (mode.size() != primary.size() || round.size() != primary.size()) {
            throw new IllegalStateException(p.link + " " + p.shape() + " " + p.codec + ": " + primary.size()
                    + " times against " + mode.size() + " modes and " + round.size() + " rounds");
        }
        Map<Integer, Map<Metric, List<Double>>> counts = new TreeMap<>();
        for (Metric c : COUNTERS) {
            List<Double> values = flat(secondary.path(c.key()).path("rawData"));
            for (int i = 0; i < values.size() && i < mode.size(); i++) {
                counts.computeIfAbsent(mode.get(i).intValue(), k -> new LinkedHashMap<>())
                        .computeIfAbsent(c, k -> new ArrayList<>()).add(values.get(i));
            }
        }
        for (int i = 0; i < primary.size(); i++) {
            p.times.computeIfAbsent(mode.get(i).intValue(), k -> new TreeMap<>()).put(round.get(i).intValue(),
                    primary.get(i));
        }
        counts.forEach((m, byCounter) -> {
            Map<Metric, Double> means = new LinkedHashMap<>();
            byCounter.forEach((c, v) -> means.put(c, Stats.mean(v)));
            p.counters.put(m, means);
        });
        // Pairs: the rounds in which both the baseline (mode 0) and mode 1 sent a map output.
        List<Double> base = new ArrayList<>();
        List<Double> other = new ArrayList<>();
        Map<Integer, Double> b = p.times.getOrDefault(0, Map.of());
        Map<Integer, Double> o = p.times.getOrDefault(1, Map.of());
        for (Map.Entry<Integer, Double> e : b.entrySet()) {
            if (o.containsKey(e.getKey())) {
                base.add(e.getValue());
                other.add(o.get(e.getKey()));
            }
        }
        if (!base.isEmpty()) {
            p.ratio = PairedRatio.of(other, base);
        }
        return p;
    }

    private static List<Double> flat(JsonNode rawData) {
        List<Double> out = new ArrayList<>();
        for (JsonNode fork : rawData) {
            for (JsonNode v : fork) {
                out.add(v.asDouble());
            }
        }
        return out;
    }
}
