package dev.sluice.bench;

import dev.sluice.report.BudgetAllocation;
import dev.sluice.report.Comparisons;
import dev.sluice.report.PairedRun;
import dev.sluice.report.RunDirectory;
import dev.sluice.report.StoppingRule;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The chunks of a run with a time budget, spent where they decide the most: every paired configuration gets its first
 * chunk as the runner reaches it, in plan order; once the last one has had its first chunk, each next chunk goes to
 * the configuration {@link BudgetAllocation} picks (the one whose rounds close the most open comparisons per second
 * of their measured cost), until every comparison is decided or within the target, or the budget left pays for no chunk.
 * The comparisons it decides are the mapper stage's, each strategy against the run's baseline (its first strategy).
 * Each configuration's stop in {@code stops/} says why it got what it got.
 *
 * <p>This replaces {@link WeightedShares}' fixed share by weight (bytes times strategies), which gave the costliest
 * size the most time although the cheapest sizes had the widest intervals (issue 36: at e212527 small got 80 to 116
 * of the main job's 1800 s, xxlarge 609 s, and 9 of 20 comparisons were left undecided).
 */
public final class DecidingSchedule implements ChunkSchedule {
    private final RunDirectory run;
    private final BudgetAllocation allocation;
    /** Seconds, > 0. */
    private final long budget;
    private final int pairedConfigs;
    /** The paired configurations reached so far, by name, and whether each has stopped. */
    private final Map<String, RunDirectory.Config> reached = new LinkedHashMap<>();
    private final Map<String, Boolean> stopped = new LinkedHashMap<>();
    /** The configuration whose first chunk is due; null when none is. */
    private RunDirectory.Config first;

    public DecidingSchedule(RunDirectory run, long budget, BudgetAllocation allocation) {
        if (budget <= 0) {
            throw new IllegalArgumentException("a deciding schedule spends a budget > 0 s, not " + budget);
        }
        this.run = run;
        this.allocation = allocation;
        this.budget = budget;
        this.pairedConfigs = (int) run.configs.stream().filter(RunDirectory.Config::paired).count();
    }

    @Override
    public String reach(RunDirectory.Config config, long elapsed, long doneWeight) {
        reached.put(config.name, config);
        stopped.put(config.name, false);
        first = config;
        return reached.size() < pairedConfigs
                ? "its first chunk now; the budget left goes where it decides the most once every size has had one"
                : String.format(Locale.ROOT, "its first chunk, then %ds of the budget left to the sizes whose "
                        + "comparisons are open, where they close the most per second", Math.max(0, budget - elapsed));
    }

    @Override
    public Step next(long elapsed) throws IOException {
        if (first != null) {
            RunDirectory.Config c = first;
            first = null;
            return Step.chunk(c, 1, c.iterations);
        }
        if (reached.size() < pairedConfigs) {
            return Step.done();
        }
        List<BudgetAllocation.Config> configs = new ArrayList<>();
        for (RunDirectory.Config c : reached.values()) {
            configs.add(of(c));
        }
        double secondsLeft = budget - elapsed;
        Optional<BudgetAllocation.Chunk> chunk = allocation.next(configs, secondsLeft);
        if (chunk.isPresent()) {
            RunDirectory.Config c = reached.get(chunk.get().config);
            return Step.chunk(c, run.paired(c).chunks() + 1, chunk.get().rounds);
        }
        for (int i = 0; i < configs.size(); i++) {
            BudgetAllocation.Config a = configs.get(i);
            if (!stopped.get(a.name)) {
                stopped.put(a.name, true);
                RunDirectory.Config c = reached.get(a.name);
                PairedRun paired = run.paired(c);
                boolean closed = allocation.open(a).isEmpty();
                int needed = closed ? a.pairs : allocation.pairsNeeded(a);
                StoppingRule.Decision decision = new StoppingRule.Decision(closed ? StoppingRule.Reason.DECIDED
                        : StoppingRule.Reason.BUDGET, 0, needed, allocation.why(a));
                run.writeStop(c, paired, decision, seconds(paired), secondsLeft,
                        new double[] {a.secondsPerRound, a.secondsPerChunk});
                return Step.stop(c, decision);
            }
        }
        return Step.done();
    }

    /** What the allocation knows of a configuration: its pairs, its comparisons against the baseline, its costs. */
    private BudgetAllocation.Config of(RunDirectory.Config c) throws IOException {
        PairedRun paired = run.paired(c);
        double[] cost = WeightedShares.cost(run, paired);
        return new BudgetAllocation.Config(c.name, paired.pairs(), Comparisons.againstBaseline(paired), cost[0],
                cost[1]);
    }

    /** The seconds a configuration's chunks took, from {@code timing.tsv}. */
    private double seconds(PairedRun paired) throws IOException {
        Map<String, Double> timing = run.timing();
        double sum = 0;
        for (List<String> files : paired.chunkFiles()) {
            for (String f : files) {
                sum += timing.getOrDefault(f, 0.0);
            }
        }
        return sum;
    }
}
