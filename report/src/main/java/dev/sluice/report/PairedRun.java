package dev.sluice.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.core.run.Metric;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A paired configuration's measured waves, read back from its chunks' JMH results: per strategy, every wave in pair
 * order, so that the strategies' waves with the same position are a pair. A chunk is one JMH run of the
 * configuration: in the {@value #ROUNDS} design one fork of {@code PairedWaveBenchmark} whose iterations take turns
 * (each wave's strategy and round are its {@code pair.strategy} and {@code pair.round}); in the {@value #FORKS} design
 * one fork of {@code ShuffleWriteBenchmark} per strategy, the forks of a chunk one after the other, the pair being
 * the waves of the same iteration. Chunk files are {@code runs/NAME-cK.json} ({@value #ROUNDS}) and
 * {@code runs/NAME-cK-sJ.json} ({@value #FORKS}, J the strategy's index).
 *
 * <p>{@link #rows} gives one JMH result per strategy, in the shape of any other (each chunk a fork, its score and
 * error from its waves, every secondary result split alike), so that reports and comparisons take paired runs as they
 * take any other; its parameters say the strategy, its own memory limit, and {@code pairing}.
 */
public final class PairedRun {
    public static final String ROUNDS = "rounds";
    public static final String FORKS = "forks";
    /** The parameter that marks a strategy's row made from a paired configuration, and its design. */
    static final String PAIRING = "pairing";

    private static final Pattern CHUNK = Pattern.compile("-c(\\d+)(?:-s(\\d+))?\\.json$");

    /** One strategy's waves of one chunk, in pair order, with the JMH result they came from. */
    static final class Series {
        final ObjectNode result;
        final List<Double> primary = new ArrayList<>();
        final Map<String, List<Double>> secondary = new TreeMap<>();

        Series(ObjectNode result) {
            this.result = result;
        }
    }

    final String name;
    final String design;
    /** The strategy specs, the baseline first. */
    final List<String> strategies;
    /** Each chunk's series, per strategy index. */
    private final List<Series[]> chunks = new ArrayList<>();
    /** Each chunk's files' names, without .json. */
    private final List<List<String>> chunkFiles = new ArrayList<>();

    private PairedRun(String name, String design, List<String> strategies) {
        this.name = name;
        this.design = design;
        this.strategies = strategies;
    }

    /** Reads the chunks of configuration {@code name} (its run name, {@code NN-NAME}) from {@code runs}. */
    static PairedRun read(Path runs, String name, String design, List<String> strategies) throws IOException {
        PairedRun run = new PairedRun(name, design, strategies);
        Map<Integer, Map<Integer, Path>> files = new TreeMap<>();
        if (Files.isDirectory(runs)) {
            try (Stream<Path> list = Files.list(runs)) {
                for (Path p : (Iterable<Path>) list::iterator) {
                    String file = p.getFileName().toString();
                    if (!file.startsWith(name + "-c")) {
                        continue;
                    }
                    Matcher m = CHUNK.matcher(file.substring(name.length()));
                    if (!m.matches()) {
                        continue;
                    }
                    int chunk = Integer.parseInt(m.group(1));
                    int strategy = m.group(2) == null ? -1 : Integer.parseInt(m.group(2));
                    files.computeIfAbsent(chunk, c -> new TreeMap<>()).put(strategy, p);
                }
            }
        }
        ObjectMapper json = new ObjectMapper();
        for (Map.Entry<Integer, Map<Integer, Path>> chunk : files.entrySet()) {
            Series[] series = new Series[strategies.size()];
            List<String> names = new ArrayList<>();
            for (Map.Entry<Integer, Path> f : chunk.getValue().entrySet()) {
                names.add(f.getValue().getFileName().toString().replaceFirst("\\.json$", ""));
                JsonNode root = json.readTree(f.getValue().toFile());
                if (root == null || !root.isArray() || root.size() != 1) {
                    throw new IOException(f.getValue() + " is not the JMH result of one configuration");
                }
                ObjectNode result = (ObjectNode) root.get(0);
                if (f.getKey() < 0) {
                    run.splitRounds(result, series, f.getValue());
                } else {
                    if (f.getKey() >= strategies.size()) {
                        throw new IOException(f.getValue() + ": no strategy " + f.getKey() + " in " + strategies);
                    }
                    series[f.getKey()] = whole(result);
                }
            }
            for (int s = 0; s < series.length; s++) {
                if (series[s] == null) {
                    throw new IOException("chunk " + chunk.getKey() + " of " + name + " has no waves of "
                            + strategies.get(s) + " (files " + names + ")");
                }
            }
            int pairs = series[0].primary.size();
            for (Series s : series) {
                if (s.primary.size() != pairs) {
                    throw new IOException("chunk " + chunk.getKey() + " of " + name + " has " + s.primary.size()
                            + " waves of one strategy and " + pairs + " of the baseline: they do not pair up");
                }
            }
            run.chunks.add(series);
            run.chunkFiles.add(names);
        }
        return run;
    }

    /** Every wave of a one-strategy result, in order. */
    private static Series whole(ObjectNode result) {
        Series s = new Series(result);
        s.primary.addAll(values(result.path("primaryMetric").path("rawData")));
        result.path("secondaryMetrics").fields().forEachRemaining(e ->
                s.secondary.put(e.getKey(), values(e.getValue().path("rawData"))));
        return s;
    }

    /** A PairedWaveBenchmark fork's waves, dealt to their strategies by pair.strategy, in round order. */
    private void splitRounds(ObjectNode result, Series[] series, Path file) throws IOException {
        Series all = whole(result);
        List<Double> index = all.secondary.get(Metric.PAIR_STRATEGY.key());
        List<Double> rounds = all.secondary.get(Metric.PAIR_ROUND.key());
        if (index == null || rounds == null || index.size() != all.primary.size()) {
            throw new IOException(file + " has no " + Metric.PAIR_STRATEGY.key() + " for every wave: not a "
                    + "PairedWaveBenchmark result");
        }
        List<String> given = Arrays.asList(result.path("params").path(BenchmarkParam.STRATEGIES.key()).asText()
                .split("\\+", -1));
        if (!given.equals(strategies)) {
            throw new IOException(file + " interleaves " + given + ", not the configuration's " + strategies);
        }
        // Sorting by round keeps each strategy's waves in round order: its wave of round r is its r-th.
        for (int s = 0; s < strategies.size(); s++) {
            series[s] = new Series(result);
        }
        Integer[] order = new Integer[all.primary.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(rounds.get(a), rounds.get(b)));
        for (int i : order) {
            int s = (int) Math.round(index.get(i));
            if (s < 0 || s >= strategies.size()) {
                throw new IOException(file + ": wave " + i + " names strategy " + s + " of " + strategies.size());
            }
            series[s].primary.add(all.primary.get(i));
            for (Map.Entry<String, List<Double>> e : all.secondary.entrySet()) {
                if (e.getValue().size() == all.primary.size()) {
                    series[s].secondary.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue().get(i));
                }
            }
        }
    }

    /** Every value of a JMH {@code rawData} array, fork after fork. */
    static List<Double> values(JsonNode rawData) {
        List<Double> values = new ArrayList<>();
        for (JsonNode fork : rawData) {
            fork.forEach(v -> values.add(v.asDouble()));
        }
        return values;
    }

    public int chunks() {
        return chunks.size();
    }

    /** The pairs so far: every strategy has one wave per pair. */
    public int pairs() {
        return chunks.stream().mapToInt(c -> c[0].primary.size()).sum();
    }

    /** The chunks' file names, without .json, chunk by chunk. */
    public List<List<String>> chunkFiles() {
        return chunkFiles;
    }

    /** A strategy's mapper stage times (JMH's clock), every chunk's waves in pair order. */
    List<Double> times(int strategy) {
        List<Double> out = new ArrayList<>();
        chunks.forEach(c -> out.addAll(c[strategy].primary));
        return out;
    }

    /** A strategy's secondary result per wave, in pair order; empty where a wave lacks it. */
    List<Double> metric(int strategy, String key) {
        List<Double> out = new ArrayList<>();
        for (Series[] c : chunks) {
            List<Double> v = c[strategy].secondary.get(key);
            if (v == null || v.size() != c[strategy].primary.size()) {
                return List.of();
            }
            out.addAll(v);
        }
        return out;
    }

    /** A strategy's query total per wave: its mapper stage plus the reduce side's read right after it. */
    List<Double> queryTimes(int strategy) {
        List<Double> times = times(strategy);
        List<Double> reads = metric(strategy, Metric.QUERY_READ_MILLIS.key());
        if (reads.size() != times.size()) {
            return List.of();
        }
        List<Double> out = new ArrayList<>();
        for (int i = 0; i < times.size(); i++) {
            out.add(times.get(i) + reads.get(i));
        }
        return out;
    }

    /** The measured time of each chunk's waves with their reads and gates (ms), chunk by chunk. */
    public List<Double> chunkWaveMillis() {
        List<Double> out = new ArrayList<>();
        for (Series[] c : chunks) {
            double sum = 0;
            for (Series s : c) {
                for (double v : s.primary) {
                    sum += v;
                }
                for (String key : List.of(Metric.QUERY_READ_MILLIS.key(), Metric.GATE_WAIT_MILLIS.key())) {
                    for (double v : s.secondary.getOrDefault(key, List.of())) {
                        sum += v;
                    }
                }
            }
            out.add(sum);
        }
        return out;
    }

    /** One JMH result per strategy, every chunk a fork of it ({@link PairedResultJson}). */
    List<ObjectNode> rows() {
        List<ObjectNode> rows = new ArrayList<>();
        for (int s = 0; s < strategies.size(); s++) {
            List<Series> forks = new ArrayList<>();
            for (Series[] c : chunks) {
                forks.add(c[s]);
            }
            rows.add(PairedResultJson.row(forks, s, strategies, design));
        }
        return rows;
    }
}
