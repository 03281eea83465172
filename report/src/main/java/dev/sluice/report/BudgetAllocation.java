package dev.sluice.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Which paired configuration (a size) gets the run's next chunk of rounds, and how many, so that a time budget decides
 * as many comparisons as it can: every configuration first gets its first chunk, then each next chunk goes where it
 * narrows the open intervals most per second, until every comparison is decided or within target, or the budget is
 * spent.
 *
 * <p>A comparison is <em>decided</em> when its {@value PairedRatio#CONFIDENCE} interval excludes 1 (the strategy is
 * faster or slower than its baseline) and <em>within target</em> when its half-width is within {@link #target} of its
 * ratio (whatever its effect is, it is smaller than the target). Either closes it. An open comparison needs its
 * interval's half-width on the log scale, {@code h = t · sd / √n}, to shrink below what closing it takes,
 * {@code need = max(|log ratio|, log(1 + target))}: its distance from no effect, or the target where the effect is
 * smaller than that. Its shortfall is {@code h / need} (above 1 while open).
 *
 * <p>Why this order: one more round of a configuration costs its measured seconds per round {@code c} and shrinks
 * every open {@code (h / need)²} of that configuration by about {@code 1/n} of itself (h² falls as 1/n). Giving each
 * chunk to the configuration with the largest {@code Σ (h / need)² / (n · c)} is the greedy form of Neyman's optimal
 * allocation for stratified samples (pairs in proportion to spread over √cost, here spread measured against what
 * deciding needs), so cheap noisy sizes get many rounds and costly quiet ones few, as opposed to a fixed share of the
 * budget by bytes. A chunk is as many rounds as its widest open comparison's spread says it still needs, at most as
 * many again as it has (so that a spread estimated from a few pairs is looked at again before much is spent on it),
 * at least what makes the chunk's fixed cost (a JVM, its inputs, its warm-ups) no more than its rounds' cost, and at
 * most what the budget left pays for.
 */
public final class BudgetAllocation {
    /** What the allocation knows of one paired configuration after its chunks so far. */
    public static final class Config {
        final String name;
        final int pairs;
        final List<PairedRatio> comparisons;
        final double secondsPerRound;
        final double secondsPerChunk;

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
        if (!(target > 0)) {
            throw new IllegalArgumentException("a target half-width must be > 0, not " + target);
        }
        if (firstRounds < 2) {
            throw new IllegalArgumentException("the first chunk needs 2 rounds or more for an interval, not "
                    + firstRounds);
        }
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

    /** {@code h / need} of an open comparison (see the class comment); +infinity without an interval. */
    double shortfall(PairedRatio c) {
        if (!c.hasInterval()) {
            return Double.POSITIVE_INFINITY;
        }
        double h = (Math.log(c.high) - Math.log(c.low)) / 2;
        return h / need(c);
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
    List<PairedRatio> open(Config c) {
        List<PairedRatio> open = new ArrayList<>();
        for (PairedRatio r : c.comparisons) {
            if (!closed(r)) {
                open.add(r);
            }
        }
        return open;
    }

    /** The pairs in all that would close every open comparison of a configuration, as {@link #pairsToClose}. */
    int pairsNeeded(Config c) {
        int needed = 0;
        for (PairedRatio r : open(c)) {
            needed = Math.max(needed, pairsToClose(r));
        }
        return needed;
    }

    /** How much one more second of a configuration's rounds narrows its open intervals (see the class comment). */
    double gainPerSecond(Config c) {
        double sum = 0;
        for (PairedRatio r : open(c)) {
            double s = shortfall(r);
            sum += s * s;
        }
        return sum / (c.pairs * c.secondsPerRound);
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
        List<Config> order = new ArrayList<>();
        for (Config c : configs) {
            if (!open(c).isEmpty()) {
                order.add(c);
            }
        }
        order.sort(Collections.reverseOrder((a, b) -> Double.compare(gainPerSecond(a), gainPerSecond(b))));
        for (Config c : order) {
            int needed = pairsNeeded(c);
            int want = Math.max(1, needed - c.pairs);
            int least = (int) Math.ceil(c.secondsPerChunk / c.secondsPerRound);
            int rounds = Math.max(Math.min(want, Math.max(c.pairs, firstRounds)), Math.min(least, want));
            long affordable = (long) Math.floor((secondsLeft - c.secondsPerChunk) / c.secondsPerRound);
            if (affordable < 1) {
                continue;
            }
            rounds = (int) Math.min(rounds, affordable);
            return Optional.of(new Chunk(c.name, rounds, String.format(Locale.ROOT, "%d of its %d comparisons open, "
                    + "the most narrowing per second (%.3g); the widest asks for about %s pairs in all",
                    open(c).size(), c.comparisons.size(), gainPerSecond(c),
                    needed >= MAX_PAIRS ? "more than " + MAX_PAIRS : String.valueOf(needed))));
        }
        return Optional.empty();
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
                Math.max(0, needed - c.pairs) * c.secondsPerRound / 60);
    }
}
