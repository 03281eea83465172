package dev.sluice.report;

import java.util.List;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.inference.TTest;

/**
 * The report's statistics, in one place: Student's t for one set of waves (JMH's error of a mean), Welch's t for two
 * independent sets (its p-value, and an interval on the ratio of their geometric means), and the paired interval on
 * the geometric mean of pairs' ratios. Every interval on a ratio is taken on the logarithms, where times that vary by
 * factors are close to normal, and is symmetric in the ratio's direction.
 */
public final class Stats {
    private Stats() {}

    /** A ratio with its interval's ends (NaN: no interval) and the logarithms' spread. */
    public static final class Interval {
        public final double ratio;
        public final double low;
        public final double high;
        /** The standard deviation the interval came from, on the logarithms; NaN without an interval. */
        public final double logSd;

        Interval(double ratio, double low, double high, double logSd) {
            this.ratio = ratio;
            this.low = low;
            this.high = high;
            this.logSd = logSd;
        }

        /** Whether there is an interval: two values or more (on each side, for two sets). */
        public boolean hasInterval() {
            return !Double.isNaN(low);
        }
    }

    public static double mean(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    }

    /** The sample variance (n - 1 in the denominator); NaN for fewer than two values. */
    public static double variance(List<Double> values) {
        if (values.size() < 2) {
            return Double.NaN;
        }
        double m = mean(values);
        return values.stream().mapToDouble(v -> (v - m) * (v - m)).sum() / (values.size() - 1);
    }

    /** The sample standard deviation; NaN for fewer than two values. */
    public static double sd(List<Double> values) {
        return Math.sqrt(variance(values));
    }

    /** The values' sample standard deviation over their mean (their coefficient of variation). */
    public static double cv(List<Double> values) {
        return sd(values) / mean(values);
    }

    /** The two-sided Student's t quantile for {@code confidence} with {@code df} degrees of freedom. */
    public static double t(double df, double confidence) {
        return new TDistribution(df).inverseCumulativeProbability(1 - (1 - confidence) / 2);
    }

    /**
     * The error of the mean of {@code runs} at {@code confidence}, as JMH computes its 99.9% error (Student's t for
     * their count times the standard error); NaN for fewer than two runs, which have no spread to estimate it from.
     */
    public static double error(List<Double> runs, double confidence) {
        int n = runs.size();
        if (n < 2) {
            return Double.NaN;
        }
        return t(n - 1, confidence) * sd(runs) / Math.sqrt(n);
    }

    /** The error at {@code confidence} of a mean of {@code n} runs, as a multiple of their coefficient of variation. */
    public static double errorPerCv(int n, double confidence) {
        return t(n - 1, confidence) / Math.sqrt(n);
    }

    /**
     * The fewest runs whose error at {@code confidence} is within {@code target} (a share of the mean) when their
     * coefficient of variation is {@code cv}; {@link Integer#MAX_VALUE} where 10,000 are not enough.
     */
    public static int runsFor(double target, double cv, double confidence) {
        for (int n = 2; n <= 10_000; n++) {
            if (errorPerCv(n, confidence) * cv <= target) {
                return n;
            }
        }
        return Integer.MAX_VALUE;
    }

    /** Welch's two-sided t-test p-value of two sets of waves; NaN where either has fewer than two. */
    public static double welchP(List<Double> a, List<Double> b) {
        if (a.size() < 2 || b.size() < 2) {
            return Double.NaN;
        }
        return new TTest().tTest(a.stream().mapToDouble(Double::doubleValue).toArray(),
                b.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /**
     * The geometric mean of {@code ratios} with its interval at {@code confidence} from Student's t on their
     * logarithms, {@code exp(mean ± t(n-1) · sd / √n)}; no interval from one ratio.
     */
    public static Interval paired(List<Double> ratios, double confidence) {
        int n = ratios.size();
        if (n == 0) {
            throw new IllegalArgumentException("no pairs: a ratio needs at least one");
        }
        for (double r : ratios) {
            if (!(r > 0) || Double.isInfinite(r)) {
                throw new IllegalArgumentException("a pair's ratio must be a positive number, not " + r);
            }
        }
        List<Double> logs = logs(ratios);
        double mean = mean(logs);
        if (n < 2) {
            return new Interval(Math.exp(mean), Double.NaN, Double.NaN, Double.NaN);
        }
        double sd = sd(logs);
        double h = t(n - 1, confidence) * sd / Math.sqrt(n);
        return new Interval(Math.exp(mean), Math.exp(mean - h), Math.exp(mean + h), sd);
    }

    /**
     * The ratio of two independent sets of waves, other over base, as the ratio of their geometric means, with its
     * interval at {@code confidence} from Welch's t on the logarithms (the Welch-Satterthwaite degrees of freedom);
     * no interval where either set has fewer than two waves.
     */
    public static Interval welch(List<Double> base, List<Double> other, double confidence) {
        List<Double> b = logs(base);
        List<Double> o = logs(other);
        double d = mean(o) - mean(b);
        double ratio = Math.exp(d);
        if (b.size() < 2 || o.size() < 2) {
            return new Interval(ratio, Double.NaN, Double.NaN, Double.NaN);
        }
        double vb = variance(b) / b.size();
        double vo = variance(o) / o.size();
        double se = Math.sqrt(vb + vo);
        if (se == 0) {
            return new Interval(ratio, ratio, ratio, 0);
        }
        double df = (vb + vo) * (vb + vo) / (vb * vb / (b.size() - 1) + vo * vo / (o.size() - 1));
        double t = t(df, confidence);
        return new Interval(ratio, Math.exp(d - t * se), Math.exp(d + t * se), se);
    }

    private static List<Double> logs(List<Double> values) {
        return values.stream().map(Math::log).toList();
    }
}
