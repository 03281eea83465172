package dev.sluice.report;

import java.util.List;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * The ratio of two independent sets of waves, other over base, as the ratio of their geometric means, with a
 * confidence interval from Welch's t on the logarithms of both sets' times (the Welch-Satterthwaite degrees of
 * freedom): what two runs that were not paired wave by wave allow, such as a benchmark in two results
 * ({@link Compare}) or two configurations of one unpaired run ({@link BalanceMap}). Waves that were paired get the
 * narrower {@link PairedRatio} instead; this one stays as its cross-check. Fewer than two waves on either side: no
 * interval (NaN ends).
 */
final class WelchRatio {
    final double ratio;
    final double low;
    final double high;

    private WelchRatio(double ratio, double low, double high) {
        this.ratio = ratio;
        this.low = low;
        this.high = high;
    }

    static WelchRatio of(List<Double> base, List<Double> other, double confidence) {
        double[] b = logs(base);
        double[] o = logs(other);
        double d = mean(o) - mean(b);
        double ratio = Math.exp(d);
        if (b.length < 2 || o.length < 2) {
            return new WelchRatio(ratio, Double.NaN, Double.NaN);
        }
        double vb = variance(b) / b.length;
        double vo = variance(o) / o.length;
        double se = Math.sqrt(vb + vo);
        if (se == 0) {
            return new WelchRatio(ratio, ratio, ratio);
        }
        double df = (vb + vo) * (vb + vo) / (vb * vb / (b.length - 1) + vo * vo / (o.length - 1));
        double t = new TDistribution(df).inverseCumulativeProbability(1 - (1 - confidence) / 2);
        return new WelchRatio(ratio, Math.exp(d - t * se), Math.exp(d + t * se));
    }

    boolean hasInterval() {
        return !Double.isNaN(low);
    }

    private static double[] logs(List<Double> runs) {
        return runs.stream().mapToDouble(Math::log).toArray();
    }

    private static double mean(double[] v) {
        double sum = 0;
        for (double x : v) {
            sum += x;
        }
        return sum / v.length;
    }

    private static double variance(double[] v) {
        double m = mean(v);
        double sum = 0;
        for (double x : v) {
            sum += (x - m) * (x - m);
        }
        return sum / (v.length - 1);
    }
}
