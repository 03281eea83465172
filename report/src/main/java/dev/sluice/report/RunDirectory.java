package dev.sluice.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A scripts/bench.sh run directory as the report tools read it: {@code plan.txt} (one line per configuration,
 * {@code name|weight|jmh arguments}), {@code runs/NN-NAME.json} (a configuration's JMH result; a paired
 * configuration's chunks are {@code runs/NN-NAME-cK...json}, {@link PairedRun}), {@code timing.tsv} (each JMH run's
 * file and seconds, as bench.sh timed it) and {@code stops/NN-NAME.json} (why a paired configuration stopped).
 */
final class RunDirectory {
    /** A configuration of the plan: its run name {@code NN-NAME} (NN its 1-based place), weight and arguments. */
    static final class Config {
        final String run;
        final String name;
        final long weight;
        final String args;

        Config(String run, String name, long weight, String args) {
            this.run = run;
            this.name = name;
            this.weight = weight;
            this.args = args;
        }

        boolean paired() {
            return args.startsWith("PairedWaveBenchmark ");
        }

        /** The value of {@code -p NAME=value} in the arguments, or empty. */
        String param(String name) {
            for (String word : args.split(" ")) {
                if (word.startsWith(name + "=")) {
                    return word.substring(name.length() + 1);
                }
            }
            return "";
        }
    }

    final Path dir;
    final List<Config> configs = new ArrayList<>();

    RunDirectory(Path dir) throws IOException {
        this.dir = dir;
        Path plan = dir.resolve("plan.txt");
        if (!Files.isRegularFile(plan)) {
            throw new IOException(dir + " holds no plan.txt: not a scripts/bench.sh run directory");
        }
        int i = 0;
        for (String line : Files.readAllLines(plan)) {
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            String[] parts = line.split("\\|", 3);
            if (parts.length != 3) {
                throw new IOException(plan + ": not name|weight|arguments: " + line);
            }
            i++;
            configs.add(new Config(String.format(Locale.ROOT, "%02d-%s", i, parts[0]), parts[0],
                    Long.parseLong(parts[1]), parts[2]));
        }
    }

    /** The configuration of run name {@code NN-NAME}. */
    Config config(String run) throws IOException {
        for (Config c : configs) {
            if (c.run.equals(run)) {
                return c;
            }
        }
        throw new IOException("no configuration " + run + " in " + dir.resolve("plan.txt"));
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

    /** Seconds per JMH run file (without .json), as bench.sh timed them. */
    Map<String, Double> timing() throws IOException {
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

    /** The design a paired configuration was run in: the one its chunk files show, else {@code fallback}. */
    PairedRun paired(Config c, String design) throws IOException {
        return PairedRun.read(runs(), c.run, design, PairedRun.strategies(c.args));
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
    void writeResults() throws IOException {
        ObjectMapper json = new ObjectMapper();
        ArrayNode all = json.createArrayNode();
        List<Comparisons.Entry> comparisons = new ArrayList<>();
        ArrayNode stops = json.createArrayNode();
        boolean paired = false;
        for (Config c : configs) {
            if (c.paired()) {
                paired = true;
                PairedRun run = paired(c, designOnDisk(c));
                if (run.chunks() == 0) {
                    continue;
                }
                List<ObjectNode> rows = run.rows();
                rows.forEach(all::add);
                Map<String, String> params = new TreeMap<>();
                rows.get(0).path("params").fields().forEachRemaining(e -> params.put(e.getKey(), e.getValue().asText()));
                comparisons.addAll(Comparisons.of(c.name, run, params, StoppingRule.TARGET));
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
     * A configuration's secondary result {@code key} (rounded), as {@code @KEY:NAME} in a plan line asks: the first
     * benchmark of its result, or of a paired configuration its first strategy's (the baseline's) waves.
     */
    double metric(String name, String key) throws IOException {
        Config c = named(name);
        if (c == null) {
            throw new IOException("no configuration " + name + " in the plan");
        }
        List<JmhResults.Row> rows;
        if (c.paired()) {
            PairedRun run = paired(c, designOnDisk(c));
            if (run.chunks() == 0) {
                throw new IOException("configuration " + name + " has no result yet");
            }
            List<Double> values = run.metric(0, key);
            if (values.isEmpty()) {
                throw new IOException(c.run + " has no " + key);
            }
            return values.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        }
        Path result = runs().resolve(c.run + ".json");
        if (!Files.isRegularFile(result)) {
            throw new IOException("configuration " + name + " has no result yet");
        }
        rows = JmhResults.read(result);
        if (rows.isEmpty() || rows.get(0).metric(key).isEmpty()) {
            throw new IOException(result + " has no " + key);
        }
        return rows.get(0).metric(key).getAsDouble();
    }

    /** Writes why a paired configuration stopped, for stops.json. */
    void writeStop(Config c, PairedRun run, StoppingRule.Decision decision, double seconds, double secondsLeft)
            throws IOException {
        ObjectMapper json = new ObjectMapper();
        ObjectNode o = json.createObjectNode();
        o.put("config", c.name);
        for (String p : List.of("size", "device", "scale", "tasks", "codec")) {
            String v = c.param(p);
            o.put(p, v.isEmpty() && p.equals("device") ? "native" : v);
        }
        o.put("pairing", run.design);
        o.put("strategies", String.join("+", run.strategies));
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
        PairedRatio widest = StoppingRule.widest(Comparisons.mapper(run));
        if (widest != null && widest.hasInterval()) {
            o.put("widestRelativeHalfWidth", widest.relativeHalfWidth());
        }
        Path dirs = dir.resolve("stops");
        Files.createDirectories(dirs);
        json.writerWithDefaultPrettyPrinter().writeValue(dirs.resolve(c.run + ".json").toFile(), o);
    }
}
