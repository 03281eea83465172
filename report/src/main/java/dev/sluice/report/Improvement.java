package dev.sluice.report;

import java.util.Locale;

/**
 * A strategy against the baseline on one figure: (baseline - strategy) / baseline in % (positive: faster), its error
 * propagated from both 99.9% errors, and Welch's p-value on the two sets of measured waves; where both were paired
 * wave by wave (one paired configuration), also the paired ratio with its 99% interval, which then decides
 * significance (Welch's test stays as the cross-check).
 */
final class Improvement {
    final double percent;
    final double error;
    final double p;
    /** The strategy's time over the baseline's, pair by pair; null where the rows are not paired. */
    final PairedRatio paired;

    private Improvement(double percent, double error, double p, PairedRatio paired) {
        this.percent = percent;
        this.error = error;
        this.p = p;
        this.paired = paired;
    }

    static Improvement of(Figure figure, JmhResults.Row base, JmhResults.Row other, PairedRatio paired) {
        double b = figure.value.apply(base);
        double o = figure.value.apply(other);
        double eb = figure.error(base);
        double eo = figure.error(other);
        double value = (b - o) / b * 100;
        // d(o/b) = sqrt((eo/b)^2 + (o eb / b^2)^2), in %.
        double error = Math.sqrt(Math.pow(eo / b, 2) + Math.pow(o * eb / (b * b), 2)) * 100;
        double p = Stats.welchP(figure.runs.apply(base), figure.runs.apply(other));
        return new Improvement(value, error, p, paired);
    }

    /** Whether there is anything to test: an interval from the pairs, or Welch's test on two waves or more. */
    boolean tested() {
        return paired != null ? paired.hasInterval() : !Double.isNaN(p);
    }

    boolean significant() {
        return paired != null ? paired.faster() || paired.slower() : p < SeedReport.SIGNIFICANCE;
    }

    /** Faster than the baseline: the paired interval below 1, or else p < 0.01 and faster. */
    boolean faster() {
        return paired != null ? paired.faster() : percent > 0 && significant();
    }

    /** How the report writes it: bold where significant. */
    String text() {
        String t;
        if (paired != null) {
            PairedRatio r = paired;
            t = r.hasInterval() ? String.format(Locale.ROOT, "%+.1f%% [%+.1f, %+.1f], %d pairs (Welch p %s)",
                    100 * r.improvement(), 100 * (1 - r.high), 100 * (1 - r.low), r.pairs(), pText(p))
                    : String.format(Locale.ROOT, "%+.1f%% (no interval: one pair)", 100 * r.improvement());
        } else {
            t = Double.isNaN(error) ? String.format(Locale.ROOT, "%+.1f%% (no error: one wave)", percent)
                    : String.format(Locale.ROOT, "%+.1f%% ± %.1f, p %s", percent, error, pText(p));
        }
        return significant() ? "**" + t + "**" : t;
    }

    private static String pText(double p) {
        return Double.isNaN(p) ? "n/a" : p < 0.001 ? "< 0.001" : String.format(Locale.ROOT, "%.3f", p);
    }
}
