package dev.sluice.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** JMH JSON results written as JMH writes them ({@code -rf json}), with the measured waves a test chooses. */
public final class SyntheticResults {
    private final ObjectMapper json = new ObjectMapper();
    private final ArrayNode all = json.createArrayNode();

    /**
     * A ShuffleWriteBenchmark result: its waves on JMH's clock (ms), the read after each, and each wave's secondary
     * {@code query.totalMillis} on the wave's inner clock, here shorter than JMH's as it was in the user's run.
     */
    SyntheticResults wave(String size, String strategy, List<Double> waves, List<Double> reads) {
        Map<String, String> params = new TreeMap<>(Map.of("size", size, "strategy", strategy, "tasks", "1",
                "memoryLimit", "none"));
        ObjectNode b = benchmark("dev.sluice.jmh.write.ShuffleWriteBenchmark.wave", params, waves, "ms/op");
        ObjectNode secondary = (ObjectNode) b.get("secondaryMetrics");
        secondary.set("query.readMillis", metric(reads, "ms"));
        secondary.set("query.totalMillis", metric(scaled(sum(waves, reads), 0.8), "ms"));
        secondary.set("wave.sumTaskMillis", metric(scaled(waves, 0.9), "ms"));
        for (String key : List.of("wave.tasks", "wave.inputBytesPerTask", "wave.batchesPerTask", "io.committedBytes",
                "io.amplification", "io.writeCallsPerMiB", "io.bytesWritten")) {
            secondary.set(key, metric(waves.stream().map(w -> 1.0).collect(java.util.stream.Collectors.toList()), ""));
        }
        all.add(b);
        return this;
    }

    /**
     * One strategy's row of a paired configuration as a run's merged result holds it ({@link PairedRun#rows}): its
     * waves in pair order, the configuration's {@code strategies} (the baseline first) and its pairing, {@code rounds}.
     */
    SyntheticResults pairedRow(String size, String strategy, List<String> strategies, List<Double> waves,
                               List<Double> reads) {
        wave(size, strategy, waves, reads);
        ObjectNode b = (ObjectNode) all.get(all.size() - 1);
        b.put("benchmark", "dev.sluice.jmh.write.PairedWaveBenchmark.wave");
        ((ObjectNode) b.get("params")).put(PairedRun.PAIRING, PairedRun.ROUNDS).put("strategies",
                String.join("+", strategies));
        return this;
    }

    /**
     * A PairedWaveBenchmark fork as PairedState runs it: {@code times[r][s]} is strategy s's wave in round r (ms),
     * the waves in the order PairedState takes them (round r starts at strategy r mod k), each with its
     * {@code pair.strategy}, {@code pair.round}, and a read of a tenth of its time.
     */
    public SyntheticResults paired(String size, List<String> strategies, String memoryLimit, double[][] times) {
        int k = strategies.size();
        List<Double> waves = new java.util.ArrayList<>();
        List<Double> index = new java.util.ArrayList<>();
        List<Double> rounds = new java.util.ArrayList<>();
        for (int r = 0; r < times.length; r++) {
            for (int i = 0; i < k; i++) {
                int s = (i + r) % k;
                waves.add(times[r][s]);
                index.add((double) s);
                rounds.add((double) r);
            }
        }
        Map<String, String> params = new TreeMap<>(Map.of("size", size, "strategies", String.join("+", strategies),
                "tasks", "1", "memoryLimit", memoryLimit));
        ObjectNode b = benchmark("dev.sluice.jmh.write.PairedWaveBenchmark.wave", params, waves, "ms/op");
        b.put("warmupIterations", k);
        ObjectNode secondary = (ObjectNode) b.get("secondaryMetrics");
        secondary.set("pair.strategy", metric(index, "index"));
        secondary.set("pair.round", metric(rounds, "round"));
        secondary.set("query.readMillis", metric(scaled(waves, 0.1), "ms"));
        secondary.set("io.peakBufferedBytes", metric(waves, "B"));
        all.add(b);
        return this;
    }

    /** Any benchmark with its primary waves and parameters. */
    SyntheticResults other(String benchmark, Map<String, String> params, List<Double> waves) {
        all.add(benchmark(benchmark, params, waves, "ms/op"));
        return this;
    }

    /** A secondary metric on the benchmark added last, one value per wave. */
    SyntheticResults secondary(String key, List<Double> runs, String unit) {
        ((ObjectNode) all.get(all.size() - 1).get("secondaryMetrics")).set(key, metric(runs, unit));
        return this;
    }

    public Path write(Path file) throws IOException {
        json.writeValue(file.toFile(), all);
        return file;
    }

    private ObjectNode benchmark(String name, Map<String, String> params, List<Double> waves, String unit) {
        ObjectNode b = json.createObjectNode();
        b.put("benchmark", name);
        b.put("mode", "ss");
        ObjectNode p = b.putObject("params");
        params.forEach(p::put);
        b.set("primaryMetric", metric(waves, unit));
        b.putObject("secondaryMetrics");
        return b;
    }

    /** As JMH writes a metric: JMH's own error is "NaN" for fewer than three runs. */
    private ObjectNode metric(List<Double> runs, String unit) {
        ObjectNode m = json.createObjectNode();
        m.put("score", runs.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN));
        if (runs.size() < 3) {
            m.put("scoreError", "NaN");
        } else {
            m.put("scoreError", JmhResults.error(runs));
        }
        m.put("scoreUnit", unit);
        ArrayNode raw = m.putArray("rawData").addArray();
        runs.forEach(raw::add);
        return m;
    }

    static List<Double> sum(List<Double> a, List<Double> b) {
        List<Double> out = new java.util.ArrayList<>();
        for (int i = 0; i < a.size(); i++) {
            out.add(a.get(i) + b.get(i));
        }
        return out;
    }

    private static List<Double> scaled(List<Double> a, double factor) {
        return a.stream().map(v -> v * factor).collect(java.util.stream.Collectors.toList());
    }
}
