package dev.sluice.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BudgetAllocationTest {
    /**
     * A synthetic size: each strategy's log ratio over the baseline is drawn per round from a normal distribution of
     * the given effect and spread; a round costs {@code secondsPerRound}, a chunk {@code secondsPerChunk} more.
     */
    static final class Size {
        final String name;
        final double[] logEffects;
        final double logSd;
        final double secondsPerRound;
        final double secondsPerChunk;
        final List<List<Double>> ratios = new ArrayList<>();
        int chunks;

        Size(String name, double[] logEffects, double logSd, double secondsPerRound, double secondsPerChunk) {
            this.name = name;
            this.logEffects = logEffects;
            this.logSd = logSd;
            this.secondsPerRound = secondsPerRound;
            this.secondsPerChunk = secondsPerChunk;
            for (int i = 0; i < logEffects.length; i++) {
                ratios.add(new ArrayList<>());
            }
        }

        int pairs() {
            return ratios.get(0).size();
        }

        double run(int rounds, Random random) {
            for (int r = 0; r < rounds; r++) {
                for (int s = 0; s < logEffects.length; s++) {
                    ratios.get(s).add(Math.exp(logEffects[s] + logSd * random.nextGaussian()));
                }
            }
            chunks++;
            return secondsPerChunk + rounds * secondsPerRound;
        }

        BudgetAllocation.Config config() {
            List<PairedRatio> comparisons = new ArrayList<>();
            if (pairs() > 0) {
                for (List<Double> r : ratios) {
                    comparisons.add(PairedRatio.ofRatios(r, PairedRatio.CONFIDENCE));
                }
            }
            return new BudgetAllocation.Config(name, pairs(), comparisons, secondsPerRound, secondsPerChunk);
        }
    }

    /** Runs the allocation to its end; returns the seconds spent. */
    static double simulate(BudgetAllocation allocation, Map<String, Size> sizes, double budget, long seed) {
        Random random = new Random(seed);
        double spent = 0;
        while (true) {
            List<BudgetAllocation.Config> configs = new ArrayList<>();
            sizes.values().forEach(s -> configs.add(s.config()));
            Optional<BudgetAllocation.Chunk> next = allocation.next(configs, budget - spent);
            if (next.isEmpty()) {
                return spent;
            }
            spent += sizes.get(next.get().config).run(next.get().rounds, random);
        }
    }

    static Map<String, Size> sizes(Size... sizes) {
        Map<String, Size> map = new LinkedHashMap<>();
        for (Size s : sizes) {
            map.put(s.name, s);
        }
        return map;
    }

    @Test
    void aCheapNoisySizeGetsMorePairsThanACostlyQuietOne() {
        // small: 2 s a round, its ratios spread 25% per pair, effects of 20% and 12%; xxlarge: 60 s a round, 3% spread,
        // effects of 12% and 10%. A share by bytes gives xxlarge the most time; deciding needs it at small.
        Size small = new Size("small", new double[] {Math.log(0.80), Math.log(1.12)}, 0.25, 2, 5);
        Size xxlarge = new Size("xxlarge", new double[] {Math.log(0.88), Math.log(1.10)}, 0.03, 60, 20);
        Map<String, Size> sizes = sizes(small, xxlarge);
        BudgetAllocation allocation = new BudgetAllocation();
        simulate(allocation, sizes, 1800, 1);
        assertTrue(small.pairs() > 3 * xxlarge.pairs(), small.pairs() + " pairs at small, " + xxlarge.pairs()
                + " at xxlarge");
        for (Size s : sizes.values()) {
            for (PairedRatio r : s.config().comparisons) {
                assertTrue(BudgetAllocation.decided(r), s.name + ": " + r.ratio + " [" + r.low + ", " + r.high + "]");
            }
        }
    }

    @Test
    void theRunStopsOnceEveryComparisonIsDecidedWithBudgetLeft() {
        Size small = new Size("small", new double[] {Math.log(0.7), Math.log(1.4)}, 0.02, 2, 5);
        Size large = new Size("large", new double[] {Math.log(0.8)}, 0.02, 10, 5);
        Map<String, Size> sizes = sizes(small, large);
        double spent = simulate(new BudgetAllocation(), sizes, 1800, 2);
        assertTrue(spent < 200, "spent " + spent + " s of 1800 on effects of 20 to 40% with a 2% spread");
        assertEquals(1, small.chunks, "three rounds decide effects this large (t(2) at 99% is 9.9)");
        assertEquals(1, large.chunks);
    }

    @Test
    void aComparisonAFewRoundsFromDecidedIsServedBeforeOneOfNoEffect() {
        // medium: buffered about 30% faster, widely spread, 25 s a round; large: no effect, quiet, 40 s a round. The
        // large one's interval is the widest against what it needs (5%), but closing it takes many rounds.
        BudgetAllocation.Config medium = new BudgetAllocation.Config("medium", 3, List.of(PairedRatio.ofRatios(
                List.of(0.5, 0.9, 0.7), PairedRatio.CONFIDENCE)), 25, 20);
        BudgetAllocation.Config large = new BudgetAllocation.Config("large", 3, List.of(PairedRatio.ofRatios(
                List.of(1.06, 0.95, 1.0), PairedRatio.CONFIDENCE)), 40, 20);
        BudgetAllocation allocation = new BudgetAllocation();
        assertTrue(allocation.pairsToClose(medium.comparisons.get(0)) < allocation.pairsToClose(
                large.comparisons.get(0)));
        assertEquals("medium", allocation.next(List.of(large, medium), 1800).orElseThrow().config);
    }

    @Test
    void everySizeGetsItsFirstChunkBeforeAnyGetsASecond() {
        Size a = new Size("a", new double[] {0.0}, 0.3, 1, 1);
        Size b = new Size("b", new double[] {0.0}, 0.3, 1, 1);
        BudgetAllocation allocation = new BudgetAllocation();
        List<BudgetAllocation.Config> configs = List.of(a.config(), b.config());
        assertEquals("a", allocation.next(configs, 100).orElseThrow().config);
        a.run(3, new Random(3));
        BudgetAllocation.Chunk next = allocation.next(List.of(a.config(), b.config()), 100).orElseThrow();
        assertEquals("b", next.config);
        assertEquals(3, next.rounds);
    }

    @Test
    void noChunkIsGivenThatTheBudgetLeftDoesNotPayFor() {
        Size costly = new Size("costly", new double[] {0.0}, 0.3, 60, 20);
        Size cheap = new Size("cheap", new double[] {0.0}, 0.3, 2, 1);
        Random random = new Random(4);
        costly.run(3, random);
        cheap.run(3, random);
        BudgetAllocation allocation = new BudgetAllocation();
        BudgetAllocation.Chunk next = allocation.next(List.of(costly.config(), cheap.config()), 30).orElseThrow();
        assertEquals("cheap", next.config);
        assertTrue(next.rounds * 2 + 1 <= 30, next.toString());
        assertTrue(allocation.next(List.of(costly.config(), cheap.config()), 2).isEmpty());
        assertTrue(allocation.why(costly.config()).startsWith("the budget is spent after 3 pairs"),
                allocation.why(costly.config()));
    }

    @Test
    void aComparisonWithoutEffectClosesWithinTheTarget() {
        Size none = new Size("none", new double[] {0.0}, 0.02, 1, 1);
        Map<String, Size> sizes = sizes(none);
        BudgetAllocation allocation = new BudgetAllocation();
        simulate(allocation, sizes, 3600, 5);
        PairedRatio r = none.config().comparisons.get(0);
        assertTrue(allocation.closed(r));
        assertFalse(BudgetAllocation.decided(r) && r.relativeHalfWidth() > 0.05 && none.pairs() > 3);
        assertTrue(allocation.why(none.config()).startsWith("every comparison decided or within 5%"));
    }

    @Test
    void aChunkAtMostDoublesTheConfigurationsPairs() {
        Size noisy = new Size("noisy", new double[] {Math.log(1.05)}, 0.4, 1, 0);
        noisy.run(3, new Random(6));
        BudgetAllocation.Chunk next = new BudgetAllocation().next(List.of(noisy.config()), 10_000).orElseThrow();
        assertEquals(3, next.rounds);
    }

    @Test
    void theMinutesToCloseCountTheChunksAsTheAllocationWouldGiveThem() {
        BudgetAllocation allocation = new BudgetAllocation();
        // From 5 to 20 pairs: a chunk of 5 (as many as it has), then one of 10; each chunk costs 30 s beyond its rounds.
        assertEquals(2 * 30 + 15 * 4, allocation.secondsToReach(5, 20, 4, 30), 1e-9);
        // From none: the first chunk's rounds at least, then doubling.
        assertEquals(4 * 10 + (3 + 3 + 6 + 1) * 2, allocation.secondsToReach(0, 13, 2, 10), 1e-9);
        assertEquals(0, allocation.secondsToReach(9, 9, 4, 30), 1e-9);
    }

    @Test
    void badSettingsAreRefusedNamingTheValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new BudgetAllocation(0, 3));
        assertTrue(e.getMessage().contains("0.0"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new BudgetAllocation(0.05, 1));
        assertTrue(e.getMessage().contains("not 1"), e.getMessage());
    }
}
