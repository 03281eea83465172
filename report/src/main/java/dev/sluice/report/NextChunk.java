package dev.sluice.report;

import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What scripts/bench.sh runs next for a paired configuration ({@code ReportTools paired-next}): the JMH runs of its
 * next chunk, one line {@code FILE|ARGUMENTS} each, or {@code stop|REASON: WHY}, having written why to
 * {@code stops/NN-NAME.json}. Without a budget a configuration runs one chunk of the plan's rounds; with one, chunks
 * are added as {@link StoppingRule} decides, within what is left of the configuration's share of the budget (bench.sh
 * gives it), the costs estimated from the chunks so far ({@code timing.tsv}).
 *
 * <p>The plan line is the first chunk's {@code PairedWaveBenchmark} run ({@code -wi} and {@code -i} multiples of the
 * strategies' count). In the {@value PairedRun#FORKS} design each chunk is instead one {@code ShuffleWriteBenchmark}
 * fork per strategy, with the same warm-up waves and as many measured waves as the chunk has rounds, in turn, each
 * chunk starting one strategy further on.
 */
final class NextChunk {
    /** A chunk's cost beyond its measured waves with their reads and gates: verification, removal, deletes. */
    static final double PER_ROUND_MARGIN = 1.15;

    private NextChunk() {}

    /**
     * @param secondsLeft what is left of the configuration's share of the budget, or +infinity for no budget
     * @param secondsSpent what the configuration has taken so far
     */
    static void next(RunDirectory run, String runName, String design, double secondsLeft, double secondsSpent,
                     StoppingRule rule, PrintStream out) throws IOException {
        RunDirectory.Config c = run.config(runName);
        if (!c.paired()) {
            throw new IOException(runName + " is not a paired configuration (its plan line runs " + c.args.split(" ")[0]
                    + ")");
        }
        PairedRun paired = run.paired(c, design);
        int k = paired.strategies.size();
        int planRounds = count(c.args, "-i") / k;
        int warmUps = count(c.args, "-wi") / k;
        StoppingRule.Decision decision;
        if (Double.isInfinite(secondsLeft)) {
            decision = paired.chunks() == 0
                    ? new StoppingRule.Decision(StoppingRule.Reason.CONTINUE, planRounds, 0, "the plan's rounds")
                    : new StoppingRule.Decision(StoppingRule.Reason.ROUNDS, 0, 0, String.format(Locale.ROOT,
                            "the %d rounds asked for, without a budget", paired.pairs()));
        } else {
            double[] cost = cost(run, paired);
            decision = rule.decide(paired.pairs(), Comparisons.mapper(paired), secondsLeft, cost[0], cost[1]);
        }
        if (decision.stop()) {
            run.writeStop(c, paired, decision, secondsSpent, secondsLeft);
            out.println("stop|" + decision.reason.text + ": " + decision.why);
            return;
        }
        int chunk = paired.chunks() + 1;
        String common = strip(c.args);
        if (design.equals(PairedRun.ROUNDS)) {
            out.printf(Locale.ROOT, "%s-c%d|%s -wi %d -i %d%n", runName, chunk, common, warmUps * k,
                    decision.rounds * k);
            return;
        }
        // One memory limit per strategy where the plan gives a list of them (a+b), else the one for all.
        String limit = c.param("memoryLimit");
        List<String> limits = limit.contains("+") ? List.of(limit.split("\\+")) : null;
        for (int i = 0; i < k; i++) {
            int s = (i + chunk - 1) % k;
            String args = common.replaceFirst("^PairedWaveBenchmark ", "ShuffleWriteBenchmark ")
                    .replaceFirst("-p strategies=\\S+", "-p strategy=" + paired.strategies.get(s));
            if (limits != null) {
                args = args.replaceFirst("-p memoryLimit=\\S+", "-p memoryLimit=" + limits.get(s));
            }
            out.printf(Locale.ROOT, "%s-c%d-s%d|%s -wi %d -i %d%n", runName, chunk, s, args, warmUps,
                    decision.rounds);
        }
    }

    /**
     * The cost of a chunk so far: [0] seconds per round (the measured waves with their reads and gates, with a margin
     * for verification and removal), [1] seconds per chunk beyond its rounds (the JVM, the inputs, the warm-up waves).
     */
    static double[] cost(RunDirectory run, PairedRun paired) throws IOException {
        Map<String, Double> timing = run.timing();
        List<Double> waves = paired.chunkWaveMillis();
        double roundSeconds = 0;
        int rounds;
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
        rounds = paired.pairs();
        if (rounds == 0) {
            return new double[] {0, 0};
        }
        return new double[] {roundSeconds / rounds, overhead / files.size()};
    }

    /** The arguments without their -wi and -i. */
    private static String strip(String args) {
        return args.replaceAll(" -wi \\d+", "").replaceAll(" -i \\d+", "");
    }

    /** The count after {@code flag} in the arguments. */
    static int count(String args, String flag) throws IOException {
        String[] words = args.split(" ");
        for (int i = 0; i + 1 < words.length; i++) {
            if (words[i].equals(flag)) {
                return Integer.parseInt(words[i + 1]);
            }
        }
        throw new IOException("a paired configuration's arguments give " + flag + ": " + args);
    }
}
