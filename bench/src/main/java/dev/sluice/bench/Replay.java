package dev.sluice.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.report.BudgetAllocation;
import dev.sluice.report.Comparisons;
import dev.sluice.report.PairedRatio;
import dev.sluice.report.RankInterval;
import dev.sluice.report.RunTiming;
import dev.sluice.report.StoppingRule;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * What a budget policy would have decided with a committed run's own waves: the run's paired sizes replayed through
 * the allocation ({@link BudgetAllocation}, what the main job runs) under another first chunk or another overhead,
 * each chunk costing what the run measured for its size, each round yielding the pairs the run measured in that round
 * (in its order; a round past the run's last one draws one of the size's rounds at random, so a policy that asks for
 * more pairs than the run took is replayed {@value #DRAWS} times with different draws). Drawn rounds repeat the
 * spread of the few the run took, never a wider one: where a policy needs many of them its count is optimistic, and
 * the table says how many it drew. Counts the mapper-stage
 * comparisons against the baseline that each interval decides at the end: t on the logarithms (the stopping rule's)
 * and the rank interval ({@link RankInterval}).
 *
 * <p>{@code java -cp sluice-bench.jar:benchmarks.jar dev.sluice.bench.Replay RUN_DIR...} prints a Markdown table.
 */
public final class Replay {
    /** Replays of a policy with different draws of the rounds past the run's own. */
    static final int DRAWS = 30;
    /** One paired size as the run measured it: each round's pairs (one per comparison), and its costs. */
    static final class Size {
        final String name;
        /** Round r: the pair ratio of every comparison, in the comparisons' order. */
        final List<double[]> rounds;
        final double secondsPerRound;
        final double secondsPerChunk;

        Size(String name, List<double[]> rounds, double secondsPerRound, double secondsPerChunk) {
            if (rounds.isEmpty()) {
                throw new IllegalArgumentException(name + " has no rounds to replay");
            }
            this.name = name;
            this.rounds = List.copyOf(rounds);
            this.secondsPerRound = secondsPerRound;
            this.secondsPerChunk = secondsPerChunk;
        }
    }

    /** A run's paired sizes, in plan order, what else it spent (seconds) and its budget. */
    static final class Run {
        final String name;
        final List<Size> sizes;
        /** The noise floor's seconds. */
        final double noiseFloorSeconds;
        /** The raw writes', floors' and paced writes' seconds. */
        final double referenceSeconds;
        final long budget;

        Run(String name, List<Size> sizes, double noiseFloorSeconds, double referenceSeconds, long budget) {
            this.name = name;
            this.sizes = List.copyOf(sizes);
            this.noiseFloorSeconds = noiseFloorSeconds;
            this.referenceSeconds = referenceSeconds;
            this.budget = budget;
        }
    }

    /** A budget policy: the first chunk's rounds, and whether the references' time is spent in the budget. */
    record Policy(String name, int firstRounds, boolean referencesInBudget) {}

    /** The policies the table compares: the main job's, and one change at a time. */
    static final List<Policy> POLICIES = List.of(
            new Policy("as the main job runs (first chunk 3, references in the budget)", 3, true),
            new Policy("first chunk 2", 2, true),
            new Policy("first chunk 5", 5, true),
            new Policy("first chunk 8 (the rank interval's fewest)", 8, true),
            new Policy("references cached (raw, floors, paced writes: 0 s)", 3, false),
            new Policy("references cached, first chunk 2", 2, false));

    /** One replay's end: comparisons decided by each interval, pairs per size, seconds spent. */
    record Outcome(int comparisons, int decidedT, int decidedRank, Map<String, Integer> pairs, int drawn,
                   double seconds) {}

    private Replay() {}

    public static void main(String[] args) {
        if (args.length == 0) {
            System.err.println("usage: Replay RUN_DIR... (committed runs of the seed preset under a budget)");
            System.exit(2);
        }
        List<Run> runs = new ArrayList<>();
        for (String dir : args) {
            try {
                runs.add(read(Paths.get(dir)));
            } catch (IOException e) {
                System.err.println("Replay: invalid RUN_DIR '" + dir + "': " + e.getMessage());
                System.exit(2);
            }
        }
        print(runs, POLICIES, System.out);
    }

    /** The table: every run under every policy, the decided counts averaged over the draws with their range. */
    static void print(List<Run> runs, List<Policy> policies, PrintStream out) {
        out.println("| run | policy | t decides (mean [min, max]) | rank decides (mean) | pairs per size (first draw) "
                + "| rounds drawn past the run's | seconds |");
        out.println("|---|---|---|---|---|---|---|");
        for (Run run : runs) {
            for (Policy p : policies) {
                int min = Integer.MAX_VALUE;
                int max = 0;
                double sumT = 0;
                double sumRank = 0;
                Outcome first = null;
                for (int d = 0; d < DRAWS; d++) {
                    Outcome o = replay(run, p, d);
                    first = first == null ? o : first;
                    min = Math.min(min, o.decidedT);
                    max = Math.max(max, o.decidedT);
                    sumT += o.decidedT;
                    sumRank += o.decidedRank;
                }
                out.printf(Locale.ROOT, "| %s | %s | %.1f of %d [%d, %d] | %.1f | %s | %d | %.0f |%n", run.name,
                        p.name, sumT / DRAWS, first.comparisons, min, max, sumRank / DRAWS, first.pairs, first.drawn,
                        first.seconds);
            }
        }
    }

    /** {@code run} replayed under {@code policy}, rounds past the run's own drawn with {@code seed}. */
    static Outcome replay(Run run, Policy policy, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        BudgetAllocation allocation = new BudgetAllocation(StoppingRule.TARGET, policy.firstRounds);
        Map<String, List<double[]>> taken = new LinkedHashMap<>();
        run.sizes.forEach(s -> taken.put(s.name, new ArrayList<>()));
        double elapsed = run.noiseFloorSeconds + (policy.referencesInBudget ? run.referenceSeconds : 0);
        while (true) {
            List<BudgetAllocation.Config> configs = new ArrayList<>();
            for (Size s : run.sizes) {
                List<double[]> rounds = taken.get(s.name);
                configs.add(new BudgetAllocation.Config(s.name, rounds.size(), comparisons(rounds),
                        s.secondsPerRound, s.secondsPerChunk));
            }
            Optional<BudgetAllocation.Chunk> chunk = allocation.next(configs, run.budget - elapsed);
            if (chunk.isEmpty()) {
                break;
            }
            Size s = run.sizes.stream().filter(z -> z.name.equals(chunk.get().config)).findFirst().orElseThrow();
            List<double[]> rounds = taken.get(s.name);
            for (int k = 0; k < chunk.get().rounds; k++) {
                int r = rounds.size();
                rounds.add(r < s.rounds.size() ? s.rounds.get(r) : s.rounds.get(random.nextInt(s.rounds.size())));
            }
            elapsed += s.secondsPerChunk + chunk.get().rounds * s.secondsPerRound;
        }
        int comparisons = 0;
        int drawn = 0;
        int decidedT = 0;
        int decidedRank = 0;
        Map<String, Integer> pairs = new LinkedHashMap<>();
        for (Size s : run.sizes) {
            List<double[]> rounds = taken.get(s.name);
            pairs.put(s.name, rounds.size());
            drawn += Math.max(0, rounds.size() - s.rounds.size());
            for (PairedRatio c : comparisons(rounds)) {
                comparisons++;
                decidedT += BudgetAllocation.decided(c) ? 1 : 0;
                decidedRank += c.rank().decided() ? 1 : 0;
            }
        }
        return new Outcome(comparisons, decidedT, decidedRank, pairs, drawn, elapsed);
    }

    /** The comparisons of the rounds so far: one ratio per comparison from every round. */
    private static List<PairedRatio> comparisons(List<double[]> rounds) {
        List<PairedRatio> out = new ArrayList<>();
        if (rounds.isEmpty()) {
            return out;
        }
        for (int c = 0; c < rounds.get(0).length; c++) {
            List<Double> ratios = new ArrayList<>();
            for (double[] round : rounds) {
                ratios.add(round[c]);
            }
            out.add(PairedRatio.ofRatios(ratios, PairedRatio.CONFIDENCE));
        }
        return out;
    }

    /**
     * A committed run directory: its sizes' mapper-stage pairs against the baseline from comparisons.json, their costs
     * from stops.json (what the schedule had measured), the other configurations' seconds from timing.tsv and the
     * budget from plan.txt's header ({@link RunTiming}).
     */
    static Run read(Path dir) throws IOException {
        ObjectMapper json = new ObjectMapper();
        Map<String, List<List<Double>>> byConfig = new LinkedHashMap<>();
        for (Comparisons.Entry c : Comparisons.read(dir.resolve("comparisons.json"))) {
            if (c.figure.equals(Comparisons.MAPPER) && !c.baseline.equals(Comparisons.IDEAL)) {
                byConfig.computeIfAbsent(c.config, k -> new ArrayList<>()).add(c.ratio.ratios);
            }
        }
        Map<String, JsonNode> stops = new LinkedHashMap<>();
        for (JsonNode stop : json.readTree(dir.resolve("stops.json").toFile())) {
            stops.put(stop.path("config").asText(), stop);
        }
        List<Size> sizes = new ArrayList<>();
        for (Map.Entry<String, List<List<Double>>> e : byConfig.entrySet()) {
            List<List<Double>> comparisons = e.getValue();
            int n = comparisons.stream().mapToInt(List::size).min().orElse(0);
            List<double[]> rounds = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                double[] round = new double[comparisons.size()];
                for (int c = 0; c < round.length; c++) {
                    round[c] = comparisons.get(c).get(r);
                }
                rounds.add(round);
            }
            JsonNode stop = stops.get(e.getKey());
            if (stop == null) {
                throw new IOException(dir + ": stops.json has no " + e.getKey());
            }
            if (!stop.hasNonNull("secondsPerRound") || !stop.hasNonNull("secondsPerChunk")) {
                // Runs before the allocation recorded what it measured: their chunks' fixed cost is not known, and
                // a replay without it would be another allocation than theirs.
                throw new IOException(dir + ": stops.json gives " + e.getKey() + " no secondsPerRound and "
                        + "secondsPerChunk (a run from before the budget recorded its costs); allowed are runs that do");
            }
            double perRound = stop.path("secondsPerRound").asDouble();
            double perChunk = stop.path("secondsPerChunk").asDouble();
            sizes.add(new Size(e.getKey(), rounds, perRound, perChunk));
        }
        RunTiming timing = RunTiming.read(dir).orElseThrow(() -> new IOException(dir + " has no timing.tsv"));
        long budget = timing.budget > 0 ? timing.budget : BenchPlan.SEED_BUDGET;
        return new Run(dir.getFileName().toString(), sizes, timing.noiseFloorSeconds, timing.referenceSeconds, budget);
    }
}
