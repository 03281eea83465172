package dev.sluice.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which paired configuration (a size) gets the run's next chunk of rounds, and how many, so that a time budget decides
 * as many comparisons as it can: every configuration first gets its first chunk, then each next chunk goes where it
 * closes the most comparisons per second, until every comparison is closed or the budget is spent.
 *
 * <p>A comparison is <em>decided</em> when its {@value PairedRatio#CONFIDENCE} interval excludes 1 (the strategy is
 * faster or slower than its baseline) and <em>within target</em> when its half-width is within {@link #target} of its
 * ratio (whatever its effect is, it is smaller than the target). Either closes it. If its ratio and spread stay as
 * they are, an open comparison closes after the fewest pairs n with {@code t(n-1) · sd / √n < need} on the log scale,
 * {@code need = max(|log ratio|, log(1 + target))}: its distance from no effect, or the target where the effect is
 * smaller ({@link #pairsToClose}).
 *
 * <p>Why this order: the question a run answers is how many comparisons it decides, so a chunk of k rounds of a
 * configuration is worth the comparisons it would close, each open one counting {@code min(1, k / still)} for the
 * {@code still} rounds it needs (progress toward one that needs more), over what the chunk costs: its fixed cost (a
 * JVM, its inputs, its warm-ups) plus k times the configuration's measured seconds per round. Each next chunk is the
 * configuration and length with the most closed per second, the lengths weighed being each open comparison's need up
 * to a cap of as many rounds again as the configuration has (a spread estimated from a few pairs is looked at again
 * before much is spent on it), and the cap. So a comparison of a large effect on a cheap size is closed first, and
 * one with no effect, which needs many pairs to come within the target, waits for the time the others leave. (A first
 * version gave each chunk to the size with the largest {@code Σ (h / need)² / (n · c)}, Neyman's allocation of pairs
 * to spread over √cost; in the main job it spent the budget on comparisons of no effect at large and left ones a
 * minute from decided at medium open: docs/paired.md.)
 */
public final class BudgetAllocation {
    /** What the allocation knows of one paired configuration after its chunks so far. */
    public static final class Config {
        public final String name;
        public final int pairs;
        final List<PairedRatio> comparisons;
        public final double secondsPerRound;
        public final double secondsPerChunk;

        /**
         * @param comparisons the comparisons the budget is to decide (each strategy against the baseline, mapper
         *                    stage), from its pairs so far; empty before its first chunk
         * @param secondsPerRound measured cost of one round (every strategy's wave with its verification and removal)
         * @param secondsPerChunk measured cost of a chunk beyond its rounds
         */
        public Config(String name, int pairs, List<PairedRatio> comparisons, double secondsPerRound,
                      double secondsPerChunk) {
            if (pairs < 0) {
                throw new IllegalArgumentException(name + ": pairs must be >= 0, not " + pairs);
            }
            if (pairs > 0 && !(secondsPerRound > 0)) {
                throw new IllegalArgumentException(name + ": a configuration with pairs has a cost per round > 0, "
                        + "not " + secondsPerRound);
            }
            this.name = name;
            this.pairs = pairs;
            this.comparisons = List.copyOf(comparisons);
            this.secondsPerRound = secondsPerRound;
            this.secondsPerChunk = Math.max(0, secondsPerChunk);
        }
    }

    /** The next chunk: the configuration, its rounds, and why in words. */
    public static final class Chunk {
        public final String config;
        public final int rounds;
        public final String why;

        Chunk(String config, int rounds, String why) {
            this.config = config;
            this.rounds = rounds;
            this.why = why;
        }

        @Override
        public String toString() {
            return config + " +" + rounds + " (" + why + ")";
        }
    }

    /** No configuration asks for more pairs than this. */
    static final int MAX_PAIRS = StoppingRule.MAX_PAIRS;

    public final double target;
    public final int firstRounds;

    public BudgetAllocation(double target, int firstRounds) {
        StoppingRule.check(target, firstRounds);
        this.target = target;
        this.firstRounds = firstRounds;
    }

    public BudgetAllocation() {
        this(StoppingRule.TARGET, StoppingRule.FIRST_ROUNDS);
    }

    /** Whether a comparison is decided: its interval excludes 1. */
    public static boolean decided(PairedRatio c) {
        return c.faster() || c.slower();
    }

    /** Whether a comparison is closed: decided, or its interval within the target of its ratio. */
    public boolean closed(PairedRatio c) {
        return decided(c) || (c.hasInterval() && c.relativeHalfWidth() <= target);
    }

    private double need(PairedRatio c) {
        return Math.max(Math.abs(Math.log(c.ratio)), Math.log1p(target));
    }

    /**
     * The pairs in all that would close comparison {@code c} if its ratio and spread stayed as they are: the fewest
     * n with {@code t(n-1) · sd / √n < need}; {@link #MAX_PAIRS} where even that many would not.
     */
    public int pairsToClose(PairedRatio c) {
        if (closed(c)) {
            return c.pairs();
        }
        if (!c.hasInterval()) {
            return firstRounds;
        }
        double need = need(c);
        for (int n = Math.max(2, c.pairs()); n < MAX_PAIRS; n++) {
            if (Stats.t(n - 1, PairedRatio.CONFIDENCE) * c.logSd / Math.sqrt(n) < need) {
                return n;
            }
        }
        return MAX_PAIRS;
    }

    /** The open comparisons of a configuration. */
    public List<PairedRatio> open(Config c) {
        List<PairedRatio> open = new ArrayList<>();
        for (PairedRatio r : c.comparisons) {
            if (!closed(r)) {
                open.add(r);
            }
        }
        return open;
    }

    /** The pairs in all that would close every open comparison of a configuration, as {@link #pairsToClose}. */
    public int pairsNeeded(Config c) {
        int needed = 0;
        for (PairedRatio r : open(c)) {
            needed = Math.max(needed, pairsToClose(r));
        }
        return needed;
    }

    /**
     * The next chunk, or empty when the run is done: every comparison closed, or the budget's {@code secondsLeft}
     * paying for no chunk of an open configuration.
     */
    public Optional<Chunk> next(List<Config> configs, double secondsLeft) {
        for (Config c : configs) {
            if (c.pairs == 0) {
                return Optional.of(new Chunk(c.name, firstRounds, "the first chunk"));
            }
        }
        Chunk best = null;
        double bestRate = 0;
        for (Config c : configs) {
            List<PairedRatio> open = open(c);
            if (open.isEmpty()) {
                continue;
            }
            // The rounds each open comparison still needs, and the chunk lengths worth weighing: each of those up to
            // the cap (as many again as the configuration has), and the cap itself.
            int cap = Math.max(c.pairs, firstRounds);
            long affordable = (long) Math.floor((secondsLeft - c.secondsPerChunk) / c.secondsPerRound);
            if (affordable < 1) {
                continue;
            }
            int[] still = new int[open.size()];
            Set<Integer> lengths = new TreeSet<>();
            for (int i = 0; i < still.length; i++) {
                still[i] = Math.max(1, pairsToClose(open.get(i)) - c.pairs);
                lengths.add((int) Math.min(Math.min(still[i], cap), affordable));
            }
            lengths.add((int) Math.min(cap, affordable));
            for (int k : lengths) {
                double closed = 0;
                for (int need : still) {
                    closed += Math.min(1.0, (double) k / need);
                }
                double rate = closed / (c.secondsPerChunk + k * c.secondsPerRound);
                if (rate > bestRate) {
                    bestRate = rate;
                    best = new Chunk(c.name, k, String.format(Locale.ROOT, "%d of its %d comparisons open; %d "
                            + "rounds close about %.2f of them, the most per second (%.3g per minute)", open.size(),
                            c.comparisons.size(), k, closed, 60 * rate));
                }
            }
        }
        return Optional.ofNullable(best);
    }

    /** Why a configuration ended where it did, in words: closed, or what its open comparisons would still take. */
    public String why(Config c) {
        List<PairedRatio> open = open(c);
        long decided = c.comparisons.stream().filter(BudgetAllocation::decided).count();
        if (open.isEmpty()) {
            return String.format(Locale.ROOT, "every comparison decided or within %.0f%% after %d pairs (%d of %d "
                    + "decided)", 100 * target, c.pairs, decided, c.comparisons.size());
        }
        int needed = pairsNeeded(c);
        return String.format(Locale.ROOT, "the budget is spent after %d pairs with %d of %d comparisons open (%d "
                + "decided); closing them would take about %s pairs in all, %.0f more minutes", c.pairs, open.size(),
                c.comparisons.size(), decided, needed >= MAX_PAIRS ? "more than " + MAX_PAIRS : String.valueOf(needed),
                secondsToReach(c.pairs, needed, c.secondsPerRound, c.secondsPerChunk) / 60);
    }

    /**
     * The seconds it would take a configuration to go from {@code pairs} to {@code needed} pairs in chunks as this
     * allocation gives them (each at most as many rounds as the configuration has, and at least the first chunk's),
     * each chunk costing {@code perChunk} beyond its rounds. The stop's words and the report's first screen both say
     * "more minutes" from this, so that the two agree.
     */
    public double secondsToReach(int pairs, int needed, double perRound, double perChunk) {
        double seconds = 0;
        for (int p = pairs; p < needed; ) {
            int k = Math.min(needed - p, Math.max(p, firstRounds));
            seconds += perChunk + k * perRound;
            p += k;
        }
        return seconds;
    }
}
