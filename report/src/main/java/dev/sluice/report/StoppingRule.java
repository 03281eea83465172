package dev.sluice.report;

import java.util.List;
import java.util.Locale;

/**
 * When a paired configuration has pairs enough: it keeps adding rounds, a chunk at a time, until every one of its
 * comparisons has a {@value PairedRatio#CONFIDENCE} interval whose half-width is within {@link #target} of its
 * ratio ({@link PairedRatio#relativeHalfWidth}), or until the next chunk would not fit in what is left of its share of
 * the time budget. The first chunk is {@link #firstRounds} rounds; each later one is as many rounds as the widest
 * comparison's spread says it still needs ({@link PairedRatio#pairsFor}), at least one, at most what the time left
 * pays for. Looking at the intervals between chunks and stopping once they are narrow enough makes them a little less
 * sure than their nominal confidence (a run that stopped had, by chance, a narrow spread); with the few looks a
 * configuration gets, that is small next to what a fixed count of waves loses on a noisy machine.
 */
public final class StoppingRule {
    /** The precision aimed at: every interval's half-width within 5% of its ratio (5 points of a ratio near 1). */
    public static final double TARGET = 0.05;
    /** The first chunk's rounds: two pairs give an interval, three a first estimate of the spread. */
    public static final int FIRST_ROUNDS = 3;
    /** No configuration asks for more pairs than this in one chunk. */
    static final int MAX_PAIRS = 1000;

    /** Why a configuration stopped, or that it goes on. */
    public enum Reason {
        /** Every comparison's interval is within the target. */
        REACHED("reached"),
        /** Every comparison decided (its interval excludes 1) or within the target ({@link DecidingSchedule}). */
        DECIDED("decided"),
        /** The next chunk would not fit in what is left of the configuration's share of the budget. */
        BUDGET("budget"),
        /** A fixed number of rounds was asked for, and run. */
        ROUNDS("rounds"),
        /** More rounds: {@link Decision#rounds}. */
        CONTINUE("continue");

        public final String text;

        Reason(String text) {
            this.text = text;
        }
    }

    /** What to do next, and why, in words. */
    public static final class Decision {
        public final Reason reason;
        /** Rounds of the next chunk; 0 when stopping. */
        public final int rounds;
        /** The pairs the widest comparison needs for the target, from its spread so far; 0 where unknown. */
        public final int pairsNeeded;
        public final String why;

        public Decision(Reason reason, int rounds, int pairsNeeded, String why) {
            this.reason = reason;
            this.rounds = rounds;
            this.pairsNeeded = pairsNeeded;
            this.why = why;
        }

        public boolean stop() {
            return reason != Reason.CONTINUE;
        }
    }

    public final double target;
    public final int firstRounds;

    public StoppingRule(double target, int firstRounds) {
        check(target, firstRounds);
        this.target = target;
        this.firstRounds = firstRounds;
    }

    public StoppingRule() {
        this(TARGET, FIRST_ROUNDS);
    }

    /** Refuses a target or a first chunk no interval can come from (also {@link BudgetAllocation}'s settings). */
    static void check(double target, int firstRounds) {
        if (!(target > 0)) {
            throw new IllegalArgumentException("a target half-width must be > 0, not " + target);
        }
        if (firstRounds < 2) {
            throw new IllegalArgumentException("the first chunk needs 2 rounds or more for an interval, not "
                    + firstRounds);
        }
    }

    /** The comparison whose interval is widest relative to its ratio (no interval counts as widest); null if none. */
    public static PairedRatio widest(List<PairedRatio> comparisons) {
        PairedRatio widest = null;
        for (PairedRatio c : comparisons) {
            if (widest == null || !c.hasInterval() || (widest.hasInterval()
                    && c.relativeHalfWidth() > widest.relativeHalfWidth())) {
                widest = c;
            }
        }
        return widest;
    }

    /**
     * The next step of a configuration that has {@code pairs} pairs, whose comparisons so far are
     * {@code comparisons}, with {@code secondsLeft} of its share of the budget still to spend, where a chunk costs
     * about {@code secondsPerChunk} plus {@code secondsPerRound} per round (estimates from the chunks so far).
     */
    public Decision decide(int pairs, List<PairedRatio> comparisons, double secondsLeft, double secondsPerRound,
                           double secondsPerChunk) {
        if (pairs == 0) {
            return new Decision(Reason.CONTINUE, firstRounds, 0, "the first chunk");
        }
        PairedRatio widest = widest(comparisons);
        if (widest == null) {
            throw new IllegalArgumentException("a configuration with pairs has comparisons");
        }
        if (widest.hasInterval() && widest.relativeHalfWidth() <= target) {
            return new Decision(Reason.REACHED, 0, pairs, String.format(Locale.ROOT, "every interval within %.0f%% "
                    + "of its ratio after %d pairs (the widest %.1f%%)", 100 * target, pairs,
                    100 * widest.relativeHalfWidth()));
        }
        int needed = 0;
        for (PairedRatio c : comparisons) {
            needed = Math.max(needed, c.hasInterval()
                    ? PairedRatio.pairsFor(target, c.logSd, PairedRatio.CONFIDENCE, MAX_PAIRS) : firstRounds);
        }
        int want = Math.max(1, needed - pairs);
        long affordable = (long) Math.floor((secondsLeft - secondsPerChunk) / secondsPerRound);
        if (affordable < 1) {
            return new Decision(Reason.BUDGET, 0, needed, String.format(Locale.ROOT, "its share of the budget is "
                    + "spent after %d pairs (%.0f s left, a chunk of one more round takes about %.0f s); the widest "
                    + "interval is %s of its ratio, which would take about %s pairs", pairs, Math.max(0, secondsLeft),
                    secondsPerChunk + secondsPerRound, widest.hasInterval() ? String.format(Locale.ROOT, "%.1f%%",
                            100 * widest.relativeHalfWidth()) : "without an interval (one pair)",
                    needed >= MAX_PAIRS ? "more than " + MAX_PAIRS : String.valueOf(needed)));
        }
        int rounds = (int) Math.min(want, affordable);
        return new Decision(Reason.CONTINUE, rounds, needed, String.format(Locale.ROOT, "the widest interval is %s "
                        + "of its ratio; its spread asks for about %s pairs in all%s", widest.hasInterval()
                        ? String.format(Locale.ROOT, "%.1f%%", 100 * widest.relativeHalfWidth()) : "missing",
                needed >= MAX_PAIRS ? "more than " + MAX_PAIRS : String.valueOf(needed),
                rounds < want ? String.format(Locale.ROOT, "; the budget pays for %d more", rounds) : ""));
    }
}
