package dev.sluice.report;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * How often an interval method covers the true ratio, measured on synthetic pairs whose true ratio is known: each pair
 * is a baseline wave {@code exp(drift + e)} and a strategy wave {@code ratio · exp(drift + f)}, the drift shared by
 * the pair (what pairing cancels) and the noises {@code e}, {@code f} independent and alike, so the pairs' log ratios
 * are symmetric about {@code log(ratio)} whatever the noise's distribution. {@code ReportTools coverage} prints the
 * table that says why {@link PairedRatio} uses t on the logarithms, with the rank interval beside them; its tests
 * hold the methods to it.
 */
final class Coverage {
    /** An interval method: the interval of the true ratio from the pairs' ratios. */
    interface Method {
        double[] interval(double[] ratios, double confidence, SplittableRandom random);
    }

    static final int RESAMPLES = 2000;

    /** {@link PairedRatio}'s: Student's t on the logarithms. */
    static final Method T_ON_LOGS = (ratios, confidence, random) -> {
        List<Double> list = new ArrayList<>();
        for (double r : ratios) {
            list.add(r);
        }
        PairedRatio p = PairedRatio.ofRatios(list, confidence);
        return new double[] {p.low, p.high};
    };

    /**
     * {@link RankInterval}'s: Wilcoxon's signed-rank interval around the Hodges-Lehmann ratio; the whole line (NaN ends)
     * with fewer pairs than it needs to exclude anything.
     */
    static final Method RANK = (ratios, confidence, random) -> {
        List<Double> list = new ArrayList<>();
        for (double r : ratios) {
            list.add(r);
        }
        RankInterval r = RankInterval.of(list, confidence);
        return r.hasInterval() ? new double[] {r.low, r.high} : new double[] {0, Double.POSITIVE_INFINITY};
    };

    /** The percentile bootstrap of the mean log ratio, {@value #RESAMPLES} resamples. */
    static final Method BOOTSTRAP = (ratios, confidence, random) -> {
        int n = ratios.length;
        double[] logs = Arrays.stream(ratios).map(Math::log).toArray();
        double[] means = new double[RESAMPLES];
        for (int b = 0; b < RESAMPLES; b++) {
            double sum = 0;
            for (int i = 0; i < n; i++) {
                sum += logs[random.nextInt(n)];
            }
            means[b] = sum / n;
        }
        Arrays.sort(means);
        double tail = (1 - confidence) / 2;
        return new double[] {Math.exp(means[(int) Math.floor(tail * (RESAMPLES - 1))]),
                Math.exp(means[(int) Math.ceil((1 - tail) * (RESAMPLES - 1))])};
    };

    /** A wave's noise: a draw of {@code e} in {@code exp(drift + e)}. */
    interface Noise {
        double draw(SplittableRandom random);
    }

    /** Normal noise of standard deviation {@code sd} in the logarithm: log-normal wave times. */
    static Noise normal(double sd) {
        return random -> sd * gaussian(random);
    }

    /**
     * Waves that are mostly steady ({@code sd} in the logarithm) but with probability {@code p} take {@code factor}
     * times as long: a skewed noise, as when a wave meets a flush or another process.
     */
    static Noise spikes(double sd, double p, double factor) {
        return random -> sd * gaussian(random) + (random.nextDouble() < p ? Math.log(factor) : 0);
    }

    private Coverage() {}

    private static double gaussian(SplittableRandom random) {
        // Box-Muller: SplittableRandom has no nextGaussian on Java 17.
        double u = 1 - random.nextDouble();
        double v = random.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    }

    /**
     * The share of {@code experiments} experiments of {@code pairs} pairs each whose interval contains
     * {@code trueRatio}; the pairs share a drift of standard deviation {@code driftSd} in the logarithm.
     */
    static double coverage(Method method, int pairs, int experiments, double trueRatio, double driftSd, Noise noise,
                           double confidence, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int covered = 0;
        for (int x = 0; x < experiments; x++) {
            double[] ratios = new double[pairs];
            for (int i = 0; i < pairs; i++) {
                double drift = driftSd * gaussian(random);
                double baseline = Math.exp(drift + noise.draw(random));
                double strategy = trueRatio * Math.exp(drift + noise.draw(random));
                ratios[i] = strategy / baseline;
            }
            double[] interval = method.interval(ratios, confidence, random);
            covered += interval[0] <= trueRatio && trueRatio <= interval[1] ? 1 : 0;
        }
        return (double) covered / experiments;
    }

    /** The table behind PairedRatio's choice: both methods, a few pair counts, two noises. */
    static void print(int experiments, PrintStream out) {
        double confidence = PairedRatio.CONFIDENCE;
        out.printf(Locale.ROOT, "Coverage of the true ratio (1.30) by %.0f%% intervals, %d experiments per cell, pairs "
                + "sharing a drift of sd 0.3 in the logarithm (seed 1):%n%n", 100 * confidence, experiments);
        out.println("| noise of each wave | pairs | t on the logarithms | percentile bootstrap | Wilcoxon signed-rank |");
        out.println("|---|---|---|---|---|");
        String[] names = {"log-normal, sd 0.05", "sd 0.05, and 1 wave in 5 taking 1.5x"};
        Noise[] noises = {normal(0.05), spikes(0.05, 0.2, 1.5)};
        for (int k = 0; k < noises.length; k++) {
            for (int pairs : new int[] {3, 5, 8, 10, 20}) {
                out.printf(Locale.ROOT, "| %s | %d | %.3f | %.3f | %s |%n", names[k], pairs,
                        coverage(T_ON_LOGS, pairs, experiments, 1.3, 0.3, noises[k], confidence, 1),
                        coverage(BOOTSTRAP, pairs, experiments, 1.3, 0.3, noises[k], confidence, 1),
                        pairs < RankInterval.fewestPairs(confidence) ? "no interval"
                                : String.format(Locale.ROOT, "%.3f", coverage(RANK, pairs, experiments, 1.3, 0.3,
                                        noises[k], confidence, 1)));
            }
        }
    }
}
