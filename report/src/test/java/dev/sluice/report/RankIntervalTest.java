package dev.sluice.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Wilcoxon signed-rank interval with the Hodges-Lehmann estimate, against cases worked by hand. */
class RankIntervalTest {
    private static final List<Double> ONE_TO_EIGHT = List.of(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0);

    @Test
    void eightPairsOneToEightGiveTheMedianOfTheirWalshAveragesAndTheTablesIntervals() {
        // The 36 Walsh averages (i + j) / 2 of 1..8 are symmetric about 4.5: the Hodges-Lehmann estimate.
        assertEquals(36, RankInterval.walshAverages(ONE_TO_EIGHT).length);
        // n = 8, two-sided 95%: P(T+ <= 3) = 5/256 = 0.0195 <= 0.025 < P(T+ <= 4) = 7/256 (the empty set, {1}, {2},
        // {3}, {1,2}; then {4}, {1,3}): c = 4, and the 4th and 33rd of the sorted Walsh averages are 2 and 7.
        assertEquals(4, RankInterval.criticalCount(8, 0.025));
        double[] at95 = RankInterval.onValues(ONE_TO_EIGHT, 0.95);
        assertEquals(4.5, at95[0], 1e-12);
        assertEquals(2.0, at95[1], 1e-12);
        assertEquals(7.0, at95[2], 1e-12);
        // 99%: only P(T+ = 0) = 1/256 = 0.0039 <= 0.005: c = 1, the smallest and largest values.
        assertEquals(1, RankInterval.criticalCount(8, 0.005));
        double[] at99 = RankInterval.onValues(ONE_TO_EIGHT, 0.99);
        assertEquals(1.0, at99[1], 1e-12);
        assertEquals(8.0, at99[2], 1e-12);
    }

    @Test
    void aNinetyNinePercentRankIntervalNeedsEightPairsToExcludeAnything() {
        // 2^-7 = 0.0078 > 0.005 >= 2^-8: seven pairs all slower are still as likely as 99% allows by chance.
        assertEquals(8, RankInterval.fewestPairs(0.99));
        assertEquals(6, RankInterval.fewestPairs(0.95));
        RankInterval seven = RankInterval.of(List.of(1.1, 1.2, 1.15, 1.3, 1.12, 1.18, 1.25), 0.99);
        assertFalse(seven.hasInterval(), "seven pairs have no 99% rank interval");
        assertTrue(seven.ratio > 1.1 && seven.ratio < 1.3, "the estimate is there without an interval");
        RankInterval eight = RankInterval.of(List.of(1.1, 1.2, 1.15, 1.3, 1.12, 1.18, 1.25, 1.22), 0.99);
        assertTrue(eight.hasInterval() && eight.low > 1, "eight pairs all slower exclude 1: " + eight.low);
        assertEquals(1.1, eight.low, 1e-12, "c = 1: the smallest ratio");
        assertEquals(1.3, eight.high, 1e-12, "and the largest");
    }

    @Test
    void aSlowPairMovesTheRankIntervalLessThanTheTInterval() {
        List<Double> quiet = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            quiet.add(0.80 * (1 + 0.01 * ((i % 5) - 2)));
        }
        // One wave of the strategy three times per-batch's (a slow wave of host system time): it takes the top rank,
        // 20, below the 99% critical value of 20 pairs (37), where its log adds most of the t interval's spread.
        List<Double> oneSlow = new ArrayList<>(quiet);
        oneSlow.set(3, 3.0);
        RankInterval rank = RankInterval.of(oneSlow, PairedRatio.CONFIDENCE);
        Stats.Interval t = Stats.paired(oneSlow, PairedRatio.CONFIDENCE);
        assertTrue(rank.high < 1, "one slow pair of 20 leaves the rank interval below 1: " + rank.high);
        assertTrue(t.high > 1, "it takes the t interval on the logarithms past 1: " + t.high);
        assertTrue(Math.abs(rank.ratio - 0.80) < 0.01, "the Hodges-Lehmann ratio stays at the quiet pairs': "
                + rank.ratio);
    }

    @Test
    void theExactCountsAreTheTablesAndTheNormalApproximationBeyondThemIsAlittleWider() {
        // Two-sided critical values of the signed-rank statistic (reject where T <= the value): n = 20 at 0.05: 52,
        // at 0.01: 37; n = 30 at 0.01: 109; n = 50 at 0.01: 373. c is one more: P(T+ < c) <= alpha / 2.
        assertEquals(53, RankInterval.criticalCount(20, 0.025));
        assertEquals(38, RankInterval.criticalCount(20, 0.005));
        assertEquals(110, RankInterval.criticalCount(30, 0.005));
        assertEquals(374, RankInterval.criticalCount(50, 0.005));
        // At 60 pairs both are at hand: the normal approximation with its continuity correction is 3 ranks lower
        // than the exact count (an interval a little wider), which is the side to err on beyond 60.
        int exact = RankInterval.criticalCount(RankInterval.EXACT_UP_TO, 0.005);
        double mu = 60 * 61 / 4.0;
        double sigma = Math.sqrt(60 * 61 * 121 / 24.0);
        double z = new org.apache.commons.math3.distribution.NormalDistribution().inverseCumulativeProbability(0.005);
        double approximated = Math.floor(mu + z * sigma + 0.5);
        assertTrue(approximated <= exact && exact - approximated <= 5, "exact " + exact + ", approximated "
                + approximated);
        assertTrue(RankInterval.criticalCount(RankInterval.EXACT_UP_TO + 1, 0.005) >= approximated, "grows with n");
    }

    @Test
    void theRankIntervalCoversTheTrueRatioAtItsConfidenceWithSkewedWaves() {
        // Pairs whose true ratio is 1.30, a shared drift pairing cancels, 1 wave in 5 taking 1.5x (Coverage's cases).
        double covered = Coverage.coverage(Coverage.RANK, 10, 1000, 1.3, 0.3, Coverage.spikes(0.05, 0.2, 1.5),
                PairedRatio.CONFIDENCE, 1);
        assertTrue(covered >= 0.98, "a 99% rank interval of 10 pairs covered the true ratio in " + covered);
    }
}
