package dev.sluice.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A distribution-free paired interval: the Hodges-Lehmann estimate of the pairs' log ratios (the median of their Walsh
 * averages, {@code (d_i + d_j) / 2} for {@code i <= j}) with the interval Wilcoxon's signed-rank test gives it, as
 * benchstat does for its rank-based comparisons. A few slow waves widen it by their ranks, not by their size, where
 * the t interval on the logarithms ({@link Stats#paired}) widens with the spread they add.
 *
 * <p>The interval is {@code [W(c), W(M + 1 - c)]} of the {@code M = n(n+1)/2} sorted Walsh averages, {@code c} the
 * largest count with {@code P(T+ < c) <= (1 - confidence) / 2} under the signed-rank statistic's null distribution:
 * exact up to {@value #EXACT_UP_TO} pairs (every sign pattern counted), its normal approximation with a continuity
 * correction beyond. With fewer pairs than {@link #fewestPairs} there is no such {@code c}: even a run of pairs that all
 * point one way is as likely as the confidence allows by chance, and the interval is the whole line (none).
 */
public final class RankInterval {
    /** Pairs up to which the null distribution is counted exactly. */
    static final int EXACT_UP_TO = 60;

    /** The Hodges-Lehmann ratio; its interval's ends (NaN: none at this confidence with so few pairs). */
    public final double ratio;
    public final double low;
    public final double high;

    private RankInterval(double ratio, double low, double high) {
        this.ratio = ratio;
        this.low = low;
        this.high = high;
    }

    /** The rank interval of {@code ratios} (each pair's ratio) at {@code confidence}. */
    public static RankInterval of(List<Double> ratios, double confidence) {
        List<Double> logs = new ArrayList<>();
        for (double r : ratios) {
            if (!(r > 0)) {
                throw new IllegalArgumentException("a pair's ratio must be > 0, not " + r);
            }
            logs.add(Math.log(r));
        }
        double[] bounds = onValues(logs, confidence);
        return new RankInterval(Math.exp(bounds[0]), Math.exp(bounds[1]), Math.exp(bounds[2]));
    }

    /**
     * On the values themselves (here, log ratios): {@code [estimate, low, high]}, the ends NaN where there is no
     * interval; NaN for no values.
     */
    static double[] onValues(List<Double> values, double confidence) {
        int n = values.size();
        if (n == 0) {
            return new double[] {Double.NaN, Double.NaN, Double.NaN};
        }
        double[] walsh = walshAverages(values);
        double estimate = median(walsh);
        int c = criticalCount(n, (1 - confidence) / 2);
        if (c < 1) {
            return new double[] {estimate, Double.NaN, Double.NaN};
        }
        return new double[] {estimate, walsh[c - 1], walsh[walsh.length - c]};
    }

    /** Whether there is an interval. */
    public boolean hasInterval() {
        return !Double.isNaN(low);
    }

    /** Whether it decides: there is an interval and it excludes 1 (faster or slower at its confidence). */
    public boolean decided() {
        return hasInterval() && (high < 1 || low > 1);
    }

    /** The fewest pairs whose two-sided rank interval at {@code confidence} can exclude anything: 2^-n <= alpha/2. */
    public static int fewestPairs(double confidence) {
        int n = 1;
        while (criticalCount(n, (1 - confidence) / 2) < 1) {
            n++;
        }
        return n;
    }

    /** The sorted Walsh averages of {@code values}. */
    static double[] walshAverages(List<Double> values) {
        int n = values.size();
        double[] w = new double[n * (n + 1) / 2];
        int k = 0;
        for (int i = 0; i < n; i++) {
            for (int j = i; j < n; j++) {
                w[k++] = (values.get(i) + values.get(j)) / 2;
            }
        }
        Arrays.sort(w);
        return w;
    }

    private static double median(double[] sorted) {
        int m = sorted.length;
        return m % 2 == 1 ? sorted[m / 2] : (sorted[m / 2 - 1] + sorted[m / 2]) / 2;
    }

    /**
     * The largest {@code c} with {@code P(T+ < c) <= tail} for the signed-rank statistic of {@code n} pairs without
     * ties (0: none, the interval is the whole line).
     */
    static int criticalCount(int n, double tail) {
        int max = n * (n + 1) / 2;
        if (n > EXACT_UP_TO) {
            // Normal approximation with a continuity correction: P(T+ <= c - 1) = Phi((c - 1 + 0.5 - mu) / sigma).
            double mu = n * (n + 1) / 4.0;
            double sigma = Math.sqrt(n * (n + 1) * (2.0 * n + 1) / 24);
            double z = new org.apache.commons.math3.distribution.NormalDistribution().inverseCumulativeProbability(tail);
            return (int) Math.max(0, Math.floor(mu + z * sigma + 0.5));
        }
        // P(T+ = s) for every s: the share of the 2^n sign patterns whose positive ranks sum to s.
        double[] p = new double[max + 1];
        p[0] = 1;
        for (int rank = 1; rank <= n; rank++) {
            for (int s = max; s >= 0; s--) {
                p[s] = (p[s] + (s >= rank ? p[s - rank] : 0)) / 2;
            }
        }
        double below = 0;
        int c = 0;
        while (c <= max && below + p[c] <= tail) {
            below += p[c];
            c++;
        }
        return c;
    }
}
