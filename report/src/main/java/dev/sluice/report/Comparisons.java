package dev.sluice.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.core.device.DeviceSpec;
import dev.sluice.core.run.BenchmarkParam;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The paired comparisons of a run ({@code comparisons.json} beside its JMH result): for every paired configuration,
 * every strategy's time over the baseline's (the first strategy, per-batch in the presets) and over {@code ideal}'s
 * where the configuration has it, pair by pair ({@link PairedRatio}), for the mapper stage (JMH's clock: the figure
 * the stopping rule holds to the target) and the query total (the wave plus the reduce side's read after it).
 */
public final class Comparisons {
    public static final String MAPPER = "mapper stage";
    static final String QUERY = "query total";
    public static final String IDEAL = "ideal";

    /** One comparison: a strategy against a baseline in one configuration, for one figure. */
    public static final class Entry {
        public final String config;
        final Map<String, String> params;
        public final String figure;
        public final String strategy;
        public final String baseline;
        public final PairedRatio ratio;
        final double target;
        /** The size's floor, where the run measured it and the figure is the mapper stage; else null. */
        final Floor floor;
        /** The strategy's waves of the figure (ms), what its time over the floor is taken from. */
        final List<Double> times;

        Entry(String config, Map<String, String> params, String figure, String strategy, String baseline,
              PairedRatio ratio, double target) {
            this(config, params, figure, strategy, baseline, ratio, target, null, List.of());
        }

        Entry(String config, Map<String, String> params, String figure, String strategy, String baseline,
              PairedRatio ratio, double target, Floor floor, List<Double> times) {
            this.config = config;
            this.params = params;
            this.figure = figure;
            this.strategy = strategy;
            this.baseline = baseline;
            this.ratio = ratio;
            this.target = target;
            this.floor = floor;
            this.times = List.copyOf(times);
        }

        boolean withinTarget() {
            return ratio.hasInterval() && ratio.relativeHalfWidth() <= target;
        }

        String param(String name) {
            return params.getOrDefault(name, "");
        }
    }

    /**
     * What comparisons.json says of each comparison's configuration: the JMH parameters that tell configurations apart
     * and the paired design ({@code pairing}, which is no parameter).
     */
    private static final List<String> CONFIGURATION = List.of(BenchmarkParam.SIZE.key(), BenchmarkParam.DEVICE.key(),
            BenchmarkParam.SCALE.key(), BenchmarkParam.TASKS.key(), BenchmarkParam.CODEC.key(), BenchmarkParam.SYNC.key(), "pairing");

    private Comparisons() {}

    /** The baselines of a configuration's strategies: the first, and ideal where it is there and not the first. */
    static List<Integer> baselines(List<String> strategies) {
        List<Integer> out = new ArrayList<>(List.of(0));
        int ideal = strategies.indexOf(IDEAL);
        if (ideal > 0) {
            out.add(ideal);
        }
        return out;
    }

    /** The mapper stage's comparisons of a paired configuration: what its stopping rule looks at. */
    public static List<PairedRatio> mapper(PairedRun run) {
        List<PairedRatio> out = new ArrayList<>();
        for (int b : baselines(run.strategies)) {
            out.addAll(against(run, b));
        }
        return out;
    }

    /**
     * The mapper stage's comparisons against the baseline alone (each other strategy over the first): what a run with
     * a budget decides ({@link DecidingSchedule}).
     */
    public static List<PairedRatio> againstBaseline(PairedRun run) {
        return against(run, 0);
    }

    /** Every other strategy's mapper-stage times over strategy {@code b}'s, pair by pair; none before the first pair. */
    private static List<PairedRatio> against(PairedRun run, int b) {
        List<PairedRatio> out = new ArrayList<>();
        for (int s = 0; run.pairs() > 0 && s < run.strategies.size(); s++) {
            if (s != b) {
                out.add(PairedRatio.of(run.times(s), run.times(b)));
            }
        }
        return out;
    }

    /** Every comparison of a paired configuration with pairs, both figures; {@code params} are the configuration's. */
    static List<Entry> of(String config, PairedRun run, Map<String, String> params, double target) {
        return of(config, run, params, target, null);
    }

    /**
     * Every comparison of a paired configuration with pairs, both figures, the mapper stage's with the size's
     * {@code floor} (null where the run has none).
     */
    static List<Entry> of(String config, PairedRun run, Map<String, String> params, double target, Floor floor) {
        List<Entry> out = new ArrayList<>();
        if (run.pairs() == 0) {
            return out;
        }
        for (String figure : List.of(MAPPER, QUERY)) {
            for (int b : baselines(run.strategies)) {
                List<Double> base = figure.equals(MAPPER) ? run.times(b) : run.queryTimes(b);
                for (int s = 0; s < run.strategies.size(); s++) {
                    List<Double> times = figure.equals(MAPPER) ? run.times(s) : run.queryTimes(s);
                    if (s == b || times.isEmpty() || base.isEmpty()) {
                        continue;
                    }
                    out.add(new Entry(config, params, figure, run.strategies.get(s), run.strategies.get(b),
                            PairedRatio.of(times, base), target, figure.equals(MAPPER) ? floor : null, times));
                }
            }
        }
        return out;
    }

    static void write(Path file, List<Entry> entries) throws IOException {
        ObjectMapper json = new ObjectMapper();
        ArrayNode all = json.createArrayNode();
        for (Entry e : entries) {
            ObjectNode o = all.addObject();
            o.put("config", e.config);
            for (String p : CONFIGURATION) {
                o.put(p, e.param(p).isEmpty() && p.equals(BenchmarkParam.DEVICE.key()) ? DeviceSpec.NATIVE : e.param(p));
            }
            o.put("figure", e.figure);
            o.put("strategy", e.strategy);
            o.put("baseline", e.baseline);
            o.put("ratio", e.ratio.ratio);
            number(o, "ciLow", e.ratio.low);
            number(o, "ciHigh", e.ratio.high);
            number(o, "halfWidth", e.ratio.halfWidth());
            number(o, "relativeHalfWidth", e.ratio.relativeHalfWidth());
            o.put("improvement", e.ratio.improvement());
            o.put("confidence", PairedRatio.CONFIDENCE);
            o.put("pairs", e.ratio.pairs());
            o.put("target", e.target);
            o.put("withinTarget", e.withinTarget());
            number(o, "logSd", e.ratio.logSd);
            RankInterval rank = e.ratio.rank();
            o.put("rankRatio", rank.ratio);
            number(o, "rankLow", rank.low);
            number(o, "rankHigh", rank.high);
            ArrayNode ratios = o.putArray("pairRatios");
            e.ratio.ratios.forEach(ratios::add);
            floor(o, e);
        }
        json.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), all);
    }

    /**
     * The strategy's time against the size's floor ({@link Floor}): the floor's parts, the floor (the slowest of
     * serialize + compress, the raw write and the paced write, null where the run has none) and the sum of the first
     * two, in ms per wave, and the strategy's geometric mean wave
     * over each; every field null where the run has no floor or the figure is not the mapper stage.
     */
    private static void floor(ObjectNode o, Entry e) {
        Floor f = e.floor;
        boolean has = f != null && !e.times.isEmpty();
        number(o, "floorSerializeMs", has ? f.serializeMs : Double.NaN);
        number(o, "floorCompressMs", has ? f.compressMs : Double.NaN);
        number(o, "floorRawWriteMs", has ? f.rawWriteMs : Double.NaN);
        number(o, "floorPacedWriteMs", has ? f.pacedWriteMs : Double.NaN);
        number(o, "floorMs", has ? f.floorMs() : Double.NaN);
        number(o, "floorSumMs", has ? f.sumMs() : Double.NaN);
        number(o, "overFloor", has ? f.over(e.times) : Double.NaN);
        number(o, "overFloorSum", has ? f.overSum(e.times) : Double.NaN);
    }

    /** Null where a figure does not exist (one pair: no interval), as JSON has no NaN. */
    private static void number(ObjectNode o, String field, double v) {
        if (Double.isNaN(v)) {
            o.putNull(field);
        } else {
            o.put(field, v);
        }
    }

    /** Reads a comparisons.json back. */
    public static List<Entry> read(Path file) throws IOException {
        JsonNode root = new ObjectMapper().readTree(file.toFile());
        if (root == null || !root.isArray()) {
            throw new IOException(file + " is not a comparisons.json (an array of comparisons)");
        }
        List<Entry> out = new ArrayList<>();
        for (JsonNode o : root) {
            Map<String, String> params = new java.util.TreeMap<>();
            for (String p : CONFIGURATION) {
                params.put(p, o.path(p).asText());
            }
            List<Double> ratios = new ArrayList<>();
            o.path("pairRatios").forEach(v -> ratios.add(v.asDouble()));
            out.add(new Entry(o.path("config").asText(), params, o.path("figure").asText(),
                    o.path("strategy").asText(), o.path("baseline").asText(),
                    PairedRatio.ofRatios(ratios, o.path("confidence").asDouble(PairedRatio.CONFIDENCE)),
                    o.path("target").asDouble(StoppingRule.TARGET)));
        }
        return out;
    }
}
