package dev.sluice.bench;

import dev.sluice.report.Comparisons;
import dev.sluice.report.PairedRun;
import dev.sluice.report.RunDirectory;
import dev.sluice.report.StoppingRule;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The chunks scripts/bench.sh runs: the paired configurations one after the other, in plan order. Without a budget a
 * configuration runs one chunk of the plan's rounds. With one, a configuration reached gets a share of what is left of
 * the budget by its weight against the weight of the configurations still to run, and chunks are added as
 * {@link StoppingRule} decides (until every 99% interval is within 5% of its ratio) within what is left of that
 * share, the costs estimated from the chunks so far ({@code timing.tsv}).
 */
public final class WeightedShares implements ChunkSchedule {
    /** A chunk's cost beyond its measured waves with their reads and gates: verification, removal, deletes. */
    static final double PER_ROUND_MARGIN = 1.15;

    private final RunDirectory run;
    private final StoppingRule rule;
    /** Seconds, or 0 for none. */
    private final long budget;
    private final long totalWeight;
    private RunDirectory.Config current;
    private long started;
    private long share;

    public WeightedShares(RunDirectory run, long budget, StoppingRule rule) {
        this.run = run;
        this.rule = rule;
        this.budget = budget;
        this.totalWeight = run.configs.stream().mapToLong(c -> c.weight).sum();
    }

    @Override
    public String reach(RunDirectory.Config config, long elapsed, long doneWeight) {
        current = config;
        started = elapsed;
        if (budget == 0) {
            return null;
        }
        long leftNow = budget - elapsed;
        share = leftNow > 0 ? leftNow * config.weight / (totalWeight - doneWeight) : 0;
        return "share of the budget: " + share + "s";
    }

    @Override
    public Step next(long elapsed) throws IOException {
        if (current == null) {
            return Step.done();
        }
        long spent = elapsed - started;
        double secondsLeft = budget == 0 ? Double.POSITIVE_INFINITY : share - spent;
        PairedRun paired = run.paired(current);
        StoppingRule.Decision decision;
        double[] cost = null;
        if (budget == 0) {
            decision = paired.chunks() == 0
                    ? new StoppingRule.Decision(StoppingRule.Reason.CONTINUE, current.iterations, 0,
                            "the plan's rounds")
                    : new StoppingRule.Decision(StoppingRule.Reason.ROUNDS, 0, 0, String.format(Locale.ROOT,
                            "the %d rounds asked for, without a budget", paired.pairs()));
        } else {
            cost = cost(run, paired);
            decision = rule.decide(paired.pairs(), Comparisons.mapper(paired), secondsLeft, cost[0], cost[1]);
        }
        RunDirectory.Config config = current;
        if (decision.stop()) {
            run.writeStop(config, paired, decision, spent, secondsLeft, cost);
            current = null;
            return Step.stop(config, decision);
        }
        return Step.chunk(config, paired.chunks() + 1, decision.rounds);
    }

    /**
     * The cost of a chunk so far: [0] seconds per round (the measured waves with their reads and gates, with a margin
     * for verification and removal), [1] seconds per chunk beyond its rounds (the JVM, the inputs, the warm-up waves).
     */
    static double[] cost(RunDirectory run, PairedRun paired) throws IOException {
        Map<String, Double> timing = run.timing();
        List<Double> waves = paired.chunkWaveMillis();
        double roundSeconds = 0;
        double overhead = 0;
        List<List<String>> files = paired.chunkFiles();
        for (int i = 0; i < files.size(); i++) {
            double wall = 0;
            for (String f : files.get(i)) {
                wall += timing.getOrDefault(f, 0.0);
            }
            double measured = waves.get(i) / 1000 * PER_ROUND_MARGIN;
            roundSeconds += measured;
            overhead += Math.max(0, wall - measured);
        }
        int rounds = paired.pairs();
        if (rounds == 0) {
            return new double[] {0, 0};
        }
        return new double[] {roundSeconds / rounds, overhead / files.size()};
    }
}
