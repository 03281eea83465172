package dev.sluice.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A strategy's time over a baseline's, pair by pair: each pair is two waves of the same round (or of the same
 * iteration of alternating forks), so that what drifts slowly on a shared machine is in both and cancels in their
 * ratio. Summarised as the geometric mean of the pairs' ratios with a {@value #CONFIDENCE} confidence interval from
 * Student's t on their logarithms: {@code exp(mean ± t(n-1) · sd / √n)} of the log ratios.
 *
 * <p>Why t on the logarithms and not a bootstrap: a configuration gets 3 to a few tens of pairs, and with so few the
 * percentile bootstrap's interval is too narrow (it resamples the pairs it has, so it never sees a spread wider than
 * theirs, and it has no t's allowance for an estimated spread): {@link Coverage} measures it covering the true ratio
 * far less often than it claims at 5 pairs, where t on the logarithms covers it at its nominal rate. Times vary by
 * factors (a slower disk, a busier core), so their ratios are close to log-normal, and the interval on the logarithm is
 * symmetric in the ratio's direction: A over B and B over A get the same interval, inverted. With one pair there is no
 * spread to estimate and so no interval.
 */
public final class PairedRatio {
    /** The confidence of every paired interval. */
    public static final double CONFIDENCE = 0.99;

    /** Each pair's ratio, strategy over baseline, in pair order. */
    public final List<Double> ratios;
    /** The geometric mean of {@link #ratios}. */
    public final double ratio;
    /** The interval's ends; NaN with one pair. */
    public final double low;
    public final double high;
    /** The standard deviation of the log ratios; NaN with one pair. */
    public final double logSd;

    private PairedRatio(List<Double> ratios, double ratio, double low, double high, double logSd) {
        this.ratios = ratios;
        this.ratio = ratio;
        this.low = low;
        this.high = high;
        this.logSd = logSd;
    }

    /** The pairs {@code (times[i], baselineTimes[i])}, at {@value #CONFIDENCE}. */
    public static PairedRatio of(List<Double> times, List<Double> baselineTimes) {
        if (times.size() != baselineTimes.size()) {
            throw new IllegalArgumentException(times.size() + " times against " + baselineTimes.size()
                    + " baseline times: pairs need one of each");
        }
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < times.size(); i++) {
            ratios.add(times.get(i) / baselineTimes.get(i));
        }
        return ofRatios(ratios, CONFIDENCE);
    }

    /** The geometric mean of {@code ratios} with its interval at {@code confidence} ({@link Stats#paired}). */
    public static PairedRatio ofRatios(List<Double> ratios, double confidence) {
        Stats.Interval i = Stats.paired(ratios, confidence);
        return new PairedRatio(Collections.unmodifiableList(new ArrayList<>(ratios)), i.ratio, i.low, i.high, i.logSd);
    }

    /** The distribution-free interval of the same pairs at {@value #CONFIDENCE} ({@link RankInterval}). */
    public RankInterval rank() {
        return RankInterval.of(ratios, CONFIDENCE);
    }

    public int pairs() {
        return ratios.size();
    }

    /** Whether there is an interval: two pairs or more. */
    public boolean hasInterval() {
        return !Double.isNaN(low);
    }

    /** Half the interval's width, in the ratio's units; NaN with one pair. */
    public double halfWidth() {
        return (high - low) / 2;
    }

    /** {@link #halfWidth} as a share of the ratio: 0.05 is "within 5 points" of a ratio near 1. */
    public double relativeHalfWidth() {
        return halfWidth() / ratio;
    }

    /** The improvement over the baseline, {@code 1 - ratio}: positive where the strategy is faster. */
    public double improvement() {
        return 1 - ratio;
    }

    /** Whether the whole interval lies below 1: the strategy is faster than the baseline at this confidence. */
    public boolean faster() {
        return hasInterval() && high < 1;
    }

    /** Whether the whole interval lies above 1. */
    public boolean slower() {
        return hasInterval() && low > 1;
    }

    /**
     * The fewest pairs whose interval's relative half-width would be within {@code target} if their log ratios spread
     * as {@code logSd}: the smallest n with {@code sinh(t(n-1) · logSd / √n) <= target}; at most {@code cap}, and
     * {@code cap} where even that is not enough.
     */
    public static int pairsFor(double target, double logSd, double confidence, int cap) {
        if (!(logSd >= 0)) {
            throw new IllegalArgumentException("a spread must be >= 0, not " + logSd);
        }
        for (int n = 2; n < cap; n++) {
            if (Math.sinh(Stats.t(n - 1, confidence) * logSd / Math.sqrt(n)) <= target) {
                return n;
            }
        }
        return cap;
    }
}
