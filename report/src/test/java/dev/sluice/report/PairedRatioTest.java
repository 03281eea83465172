package dev.sluice.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The paired ratio's statistics, on synthetic pairs from known distributions: its interval covers the true ratio at
 * about its nominal rate, where the percentile bootstrap of few pairs does not; pairing cancels drift; one pair has
 * no interval.
 */
class PairedRatioTest {
    private static final int EXPERIMENTS = 4000;

    @Test
    void aResultWithOnePairSaysItHasNoInterval() {
        PairedRatio one = PairedRatio.of(List.of(120.0), List.of(100.0));
        assertEquals(1, one.pairs());
        assertEquals(1.2, one.ratio, 1e-12);
        assertFalse(one.hasInterval());
        assertTrue(Double.isNaN(one.low) && Double.isNaN(one.high) && Double.isNaN(one.halfWidth()));
        assertFalse(one.faster() || one.slower(), "no interval, no claim");
        assertTrue(PairedRows.text(one).contains("no interval: one pair"), PairedRows.text(one));
    }

    @Test
    void theRatioIsTheGeometricMeanOfThePairsRatiosAndItsIntervalIsTOnTheirLogarithms() {
        PairedRatio r = PairedRatio.of(List.of(110.0, 240.0, 99.0), List.of(100.0, 200.0, 90.0));
        double mean = (Math.log(1.1) + Math.log(1.2) + Math.log(1.1)) / 3;
        assertEquals(Math.exp(mean), r.ratio, 1e-12);
        double sd = Math.sqrt((Math.pow(Math.log(1.1) - mean, 2) * 2 + Math.pow(Math.log(1.2) - mean, 2)) / 2);
        double h = 9.924843200918 * sd / Math.sqrt(3); // t(2) at 99%, two-sided
        assertEquals(Math.exp(mean - h), r.low, 1e-9);
        assertEquals(Math.exp(mean + h), r.high, 1e-9);
        assertEquals(Math.sinh(h), r.relativeHalfWidth(), 1e-9);
    }

    @Test
    void aOverBAndBOverAGetTheSameIntervalInverted() {
        List<Double> a = List.of(110.0, 240.0, 99.0, 130.0);
        List<Double> b = List.of(100.0, 200.0, 90.0, 120.0);
        PairedRatio ab = PairedRatio.of(a, b);
        PairedRatio ba = PairedRatio.of(b, a);
        assertEquals(1 / ab.ratio, ba.ratio, 1e-12);
        assertEquals(1 / ab.high, ba.low, 1e-12);
        assertEquals(1 / ab.low, ba.high, 1e-12);
    }

    @Test
    void theIntervalCoversTheTrueRatioAtAboutItsNominalRateOnLogNormalPairs() {
        for (int pairs : new int[] {3, 5, 12}) {
            double covered = Coverage.coverage(Coverage.T_ON_LOGS, pairs, EXPERIMENTS, 1.3, 0.3,
                    Coverage.normal(0.05), PairedRatio.CONFIDENCE, 7);
            // 99% nominal; the binomial spread of 4000 experiments is 0.16%.
            assertTrue(covered >= 0.983 && covered <= 0.997, pairs + " pairs covered " + covered);
        }
    }

    @Test
    void theIntervalStaysNearItsNominalRateWhenSomeWavesAreMuchSlower() {
        // 1 wave in 5 takes 1.5 times as long: skewed waves, but their pairs' log ratios are symmetric.
        double covered = Coverage.coverage(Coverage.T_ON_LOGS, 10, EXPERIMENTS, 0.8, 0.3,
                Coverage.spikes(0.05, 0.2, 1.5), PairedRatio.CONFIDENCE, 11);
        assertTrue(covered >= 0.97, "covered " + covered);
    }

    @Test
    void thePercentileBootstrapOfFivePairsCoversFarLessOftenThanItClaims() {
        double bootstrap = Coverage.coverage(Coverage.BOOTSTRAP, 5, EXPERIMENTS / 4, 1.3, 0.3,
                Coverage.normal(0.05), PairedRatio.CONFIDENCE, 7);
        assertTrue(bootstrap < 0.95, "the bootstrap of 5 pairs covered " + bootstrap + " for a nominal 99%");
    }

    @Test
    void driftSharedByThePairsCancelsInTheRatioWhereUnpairedWavesCannotSeeTheDifference() {
        // The machine drifts by ±30% from wave to wave; the strategy is 10% faster with 1% noise per wave.
        SplittableRandom random = new SplittableRandom(3);
        List<Double> base = new ArrayList<>();
        List<Double> strategy = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            double drift = Math.exp(0.3 * (random.nextDouble() * 2 - 1));
            base.add(1000 * drift * Math.exp(0.01 * (random.nextDouble() - 0.5)));
            strategy.add(900 * drift * Math.exp(0.01 * (random.nextDouble() - 0.5)));
        }
        PairedRatio paired = PairedRatio.of(strategy, base);
        assertTrue(paired.faster() && paired.relativeHalfWidth() < 0.02, "paired: " + PairedRows.text(paired));
        Stats.Interval unpaired = Stats.welch(base, strategy, PairedRatio.CONFIDENCE);
        assertTrue(unpaired.low < 1 && unpaired.high > 1, "unpaired, the drift hides it: [" + unpaired.low + ", "
                + unpaired.high + "]");
    }

    @Test
    void pairsForIsTheFewestPairsWhoseIntervalIsWithinTheTarget() {
        int n = PairedRatio.pairsFor(0.05, 0.04, 0.99, 1000);
        assertTrue(Math.sinh(Stats.t(n - 1, 0.99) * 0.04 / Math.sqrt(n)) <= 0.05);
        assertTrue(Math.sinh(Stats.t(n - 2, 0.99) * 0.04 / Math.sqrt(n - 1)) > 0.05);
        assertEquals(2, PairedRatio.pairsFor(0.05, 0.0, 0.99, 1000), "no spread: two pairs");
        assertEquals(1000, PairedRatio.pairsFor(0.05, 5.0, 0.99, 1000), "capped");
    }

    @Test
    void aRatioNeedsPositiveTimesInPairs() {
        assertThrows(IllegalArgumentException.class, () -> PairedRatio.of(List.of(1.0, 2.0), List.of(1.0)));
        assertThrows(IllegalArgumentException.class, () -> PairedRatio.of(List.of(), List.of()));
        assertThrows(IllegalArgumentException.class, () -> PairedRatio.of(List.of(0.0), List.of(1.0)));
    }
}
