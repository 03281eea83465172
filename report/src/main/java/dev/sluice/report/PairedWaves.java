package dev.sluice.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.core.run.Metric;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The pairs of a raw {@code PairedWaveBenchmark} result, as JMH wrote it (one result holding every strategy's waves,
 * {@code pair.strategy} and {@code pair.round} saying whose each wave is): each strategy of the list, by its place,
 * against the first, with the paired ratio's 99% interval. For runs outside {@code scripts/bench.sh}, which splits a
 * paired result by strategy name: here the same strategy may appear twice with another per-strategy setting
 * ({@code -p strategies=ideal+ideal -p counting=true+false}).
 */
final class PairedWaves {
    private PairedWaves() {}

    static void print(Path result, PrintStream out) throws IOException {
        JsonNode results = new ObjectMapper().readTree(result.toFile());
        for (JsonNode r : results) {
            if (!r.path("benchmark").asText().endsWith("PairedWaveBenchmark.wave")) {
                continue;
            }
            JsonNode params = r.path("params");
            List<String> strategies = List.of(params.path(BenchmarkParam.STRATEGIES.key()).asText().split("\\+"));
            List<Double> times = PairedRun.values(r.path("primaryMetric").path("rawData"));
            JsonNode secondary = r.path("secondaryMetrics");
            List<Double> index = PairedRun.values(secondary.path(Metric.PAIR_STRATEGY.key()).path("rawData"));
            List<Double> round = PairedRun.values(secondary.path(Metric.PAIR_ROUND.key()).path("rawData"));
            if (times.size() != index.size() || times.size() != round.size()) {
                throw new IOException(result + ": waves, pair.strategy and pair.round differ in length");
            }
            Map<Integer, Map<Integer, Double>> byRound = new TreeMap<>();
            for (int i = 0; i < times.size(); i++) {
                byRound.computeIfAbsent(round.get(i).intValue(), k -> new TreeMap<>())
                        .put(index.get(i).intValue(), times.get(i));
            }
            out.printf(Locale.ROOT, "%s, size %s, codec %s, device %s, %d rounds%n", params.path(BenchmarkParam.STRATEGIES.key()).asText(),
                    params.path(BenchmarkParam.SIZE.key()).asText(), params.path(BenchmarkParam.CODEC.key()).asText(), params.path(BenchmarkParam.DEVICE.key()).asText("native"),
                    byRound.size());
            for (int s = 1; s < strategies.size(); s++) {
                List<Double> ratios = new ArrayList<>();
                for (Map<Integer, Double> waves : byRound.values()) {
                    if (waves.containsKey(0) && waves.containsKey(s)) {
                        ratios.add(waves.get(s) / waves.get(0));
                    }
                }
                PairedRatio ratio = PairedRatio.ofRatios(ratios, PairedRatio.CONFIDENCE);
                out.printf(Locale.ROOT, "  #%d %s%s against #0 %s: %.3f [%.3f, %.3f], %d pairs%n", s, strategies.get(s),
                        setting(params, s, strategies.size()), strategies.get(0), ratio.ratio, ratio.low, ratio.high,
                        ratio.pairs());
            }
        }
    }

    /** The per-strategy settings of strategy {@code s} ({@code counting}, {@code memoryLimit}) where they differ. */
    private static String setting(JsonNode params, int s, int k) {
        StringBuilder text = new StringBuilder();
        for (String name : List.of(BenchmarkParam.COUNTING.key(), BenchmarkParam.MEMORY_LIMIT.key())) {
            String[] values = params.path(name).asText().split("\\+");
            if (values.length == k) {
                text.append(' ').append(name).append('=').append(values[s]);
            }
        }
        return text.toString();
    }
}
