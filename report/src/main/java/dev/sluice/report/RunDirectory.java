package dev.sluice.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.core.run.BenchmarkParam;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A scripts/bench.sh run directory as the runner writes and the report tools read it: {@code runs/NN-NAME.json} (a
 * configuration's JMH result; a paired configuration's chunks are {@code runs/NN-NAME-cK...json}, {@link PairedRun}),
 * {@code timing.tsv} (each JMH run's file and seconds) and {@code stops/NN-NAME.json} (why a paired configuration
 * stopped). The configurations are the plan's, in its order, each named {@code NN-NAME} (NN its 1-based place).
 */
public final class RunDirectory {
    /** A configuration of the plan with its run name {@code NN-NAME}. */
    public static final class Config {
        public final String run;
        public final String name;
        public final long weight;
        /** Paired: the strategies, the baseline first; else empty. */
        public final List<String> strategies;
        /** Paired: the first chunk's rounds (without a budget, the only chunk's). */
        public final int iterations;
        /** What stops.json says of it: size, device, scale, tasks, codec, partitions. */
        final Map<String, String> params;

        public Config(String run, String name, long weight, List<String> strategies, int iterations,
               Map<String, String> params) {
            this.run = run;
            this.name = name;
            this.weight = weight;
            this.strategies = List.copyOf(strategies);
            this.iterations = iterations;
            this.params = params;
        }

        public boolean paired() {
            return !strategies.isEmpty();
        }
    }

    final Path dir;
    final String design;
    public final List<Config> configs = new ArrayList<>();

    /**
     * The run directory in {@code dir} of {@code configs}, in the plan's order, whose paired configurations run in
     * {@code design} ({@link PairedRun#ROUNDS} or {@link PairedRun#FORKS}).
     */
    public RunDirectory(Path dir, String design, List<Config> configs) {
        this.dir = dir;
        this.design = design;
        this.configs.addAll(configs);
    }

    /** The configurations, in plan order. */
    public List<Config> configs() {
        return List.copyOf(configs);
    }

    /** The configuration of run name {@code NN-NAME}. */
    public Config config(String run) throws IOException {
        for (Config c : configs) {
            if (c.run.equals(run)) {
                return c;
            }
        }
        throw new IOException("no configuration " + run + " in " + dir);
    }

    /** The configuration named {@code name} (without its number); null if none. */
    Config named(String name) {
        for (Config c : configs) {
            if (c.name.equals(name)) {
                return c;
            }
        }
        return null;
    }

    Path runs() {
        return dir.resolve("runs");
    }

    /** Appends a JMH run's wall time to {@code timing.tsv}. */
    public void time(String file, long nanos) throws IOException {
        Files.writeString(dir.resolve("timing.tsv"), String.format(Locale.ROOT, "%s\t%d.%03d%n", file,
                nanos / 1_000_000_000, nanos / 1_000_000 % 1000), java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND);
    }

    /** Seconds per JMH run file (without .json), as the runner timed them. */
    public Map<String, Double> timing() throws IOException {
        Map<String, Double> out = new TreeMap<>();
        Path file = dir.resolve("timing.tsv");
        if (Files.isRegularFile(file)) {
            for (String line : Files.readAllLines(file)) {
                String[] parts = line.split("\t");
                if (parts.length == 2) {
                    out.merge(parts[0], Double.parseDouble(parts[1]), Double::sum);
                }
            }
        }
        return out;
    }

    /** A paired configuration's chunks so far, run in the plan's design. */
    public PairedRun paired(Config c) throws IOException {
        return PairedRun.read(runs(), c.run, design, c.strategies);
    }

    /** The design of a paired configuration's chunks on disk: forks where a file names its strategy. */
    String designOnDisk(Config c) throws IOException {
        if (!Files.isDirectory(runs())) {
            return PairedRun.ROUNDS;
        }
        try (Stream<Path> list = Files.list(runs())) {
            return list.map(p -> p.getFileName().toString()).anyMatch(f -> f.startsWith(c.run + "-c")
                    && f.matches(".*-c\\d+-s\\d+\\.json")) ? PairedRun.FORKS : PairedRun.ROUNDS;
        }
    }

    /**
     * Writes the run's results: {@code jmh-result.json}, every configuration's JMH result in plan order (a paired
     * configuration's as one result per strategy, {@link PairedRun#rows}); and where the run has paired configurations,
     * {@code comparisons.json} and {@code stops.json}.
     */
    public void writeResults() throws IOException {
        ObjectMapper json = new ObjectMapper();
        ArrayNode all = json.createArrayNode();
        List<Comparisons.Entry> comparisons = new ArrayList<>();
        ArrayNode stops = json.createArrayNode();
        boolean paired = false;
        for (Config c : configs) {
            if (c.paired()) {
                paired = true;
                PairedRun run = PairedRun.read(runs(), c.run, designOnDisk(c), c.strategies);
                if (run.chunks() == 0) {
                    continue;
                }
                List<ObjectNode> rows = run.rows();
                rows.forEach(all::add);
                Map<String, String> params = new TreeMap<>();
                rows.get(0).path("params").fields().forEachRemaining(e -> params.put(e.getKey(), e.getValue().asText()));
                comparisons.addAll(Comparisons.of(c.name, run, params, StoppingRule.TARGET, floor(c)));
                Path stop = dir.resolve("stops").resolve(c.run + ".json");
                if (Files.isRegularFile(stop)) {
                    stops.add(json.readTree(stop.toFile()));
                }
                continue;
            }
            Path result = runs().resolve(c.run + ".json");
            if (!Files.isRegularFile(result)) {
                continue;
            }
            JsonNode node = json.readTree(result.toFile());
            if (node == null || !node.isArray()) {
                throw new IOException(result + " is not a JMH JSON result");
            }
            node.forEach(all::add);
        }
        json.writerWithDefaultPrettyPrinter().writeValue(dir.resolve("jmh-result.json").toFile(), all);
        if (paired) {
            Comparisons.write(dir.resolve("comparisons.json"), comparisons);
            json.writerWithDefaultPrettyPrinter().writeValue(dir.resolve("stops.json").toFile(), stops);
        }
    }

    /**
     * The floor of paired configuration {@code c}'s size: its size's floor configuration ({@code SIZE-floor}, one per
     * size whatever the device), its own raw write ({@code NAME-raw}) and its paced write ({@code NAME-paced}, where
     * the plan has one), as they ran; null where either of the first two is not there (a plan without floors,
     * lz4-frame, a run stopped early).
     */
    private Floor floor(Config c) throws IOException {
        List<JmhResults.Row> rows = new ArrayList<>();
        for (String name : List.of(c.params.getOrDefault(BenchmarkParam.SIZE.key(), "") + "-floor", c.name + "-raw")) {
            Optional<Path> result = result(name);
            if (result.isEmpty()) {
                return null;
            }
            rows.addAll(JmhResults.read(result.get()));
        }
        Optional<Path> paced = result(c.name + "-paced");
        if (paced.isPresent()) {
            rows.addAll(JmhResults.read(paced.get()));
        }
        return Floor.of(rows, c.params.getOrDefault(BenchmarkParam.SIZE.key(), "")).orElse(null);
    }

    /** The JMH result file of the configuration named {@code name}, where the plan has it and it ran. */
    private Optional<Path> result(String name) {
        Config other = named(name);
        Path result = other == null ? null : runs().resolve(other.run + ".json");
        return result == null || !Files.isRegularFile(result) ? Optional.empty() : Optional.of(result);
    }

    /**
     * The CPU floor of {@code size} as its floor configuration ({@code SIZE-floor}) measured it: serialize + compress,
     * ms per wave (the means); empty where the plan has none or it has not run.
     */
    public OptionalDouble floorCpuMs(String size) throws IOException {
        Optional<Path> result = result(size + "-floor");
        return result.isEmpty() ? OptionalDouble.empty() : Floor.cpuMs(JmhResults.read(result.get()), size);
    }

    /**
     * A paired configuration's secondary result {@code key}: the mean over its first strategy's (the baseline's)
     * waves, so far.
     */
    public double metric(String name, String key) throws IOException {
        Config c = named(name);
        if (c == null || !c.paired()) {
            throw new IOException("no paired configuration " + name + " in the plan");
        }
        PairedRun run = paired(c);
        if (run.chunks() == 0) {
            throw new IOException("configuration " + name + " has no result yet");
        }
        List<Double> values = run.metric(0, key);
        if (values.isEmpty()) {
            throw new IOException(c.run + " has no " + key);
        }
        return values.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
    }

    /**
     * Writes why a paired configuration stopped, for stops.json; {@code cost} is what the schedule knew of its costs
     * ({@link WeightedShares#cost}: seconds per round, per chunk), null where it weighed none (no budget).
     */
    public void writeStop(Config c, PairedRun run, StoppingRule.Decision decision, double seconds, double secondsLeft,
                   double[] cost) throws IOException {
        ObjectMapper json = new ObjectMapper();
        ObjectNode o = json.createObjectNode();
        o.put("config", c.name);
        c.params.forEach(o::put);
        o.put("pairing", run.design);
        o.put(BenchmarkParam.STRATEGIES.key(), String.join("+", run.strategies));
        o.put("pairs", run.pairs());
        o.put("chunks", run.chunks());
        o.put("seconds", seconds);
        if (Double.isInfinite(secondsLeft)) {
            o.putNull("secondsLeft");
        } else {
            o.put("secondsLeft", secondsLeft);
        }
        o.put("reason", decision.reason.text);
        o.put("why", decision.why);
        o.put("pairsNeeded", decision.pairsNeeded);
        if (cost != null) {
            o.put("secondsPerRound", cost[0]);
            o.put("secondsPerChunk", cost[1]);
        }
        PairedRatio widest = StoppingRule.widest(Comparisons.mapper(run));
        if (widest != null && widest.hasInterval()) {
            o.put("widestRelativeHalfWidth", widest.relativeHalfWidth());
        }
        Path dirs = dir.resolve("stops");
        Files.createDirectories(dirs);
        json.writerWithDefaultPrettyPrinter().writeValue(dirs.resolve(c.run + ".json").toFile(), o);
    }
}
