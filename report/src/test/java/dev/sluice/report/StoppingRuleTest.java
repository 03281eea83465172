package dev.sluice.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** When a paired configuration stops: target reached, budget spent, or more rounds as its spread asks. */
class StoppingRuleTest {
    private final StoppingRule rule = new StoppingRule();

    /** Pairs whose ratios spread by about {@code spread} around {@code ratio}. */
    private static PairedRatio ratios(double ratio, double spread, int pairs) {
        List<Double> r = new java.util.ArrayList<>();
        for (int i = 0; i < pairs; i++) {
            r.add(ratio * (1 + (i % 2 == 0 ? spread : -spread)));
        }
        return PairedRatio.ofRatios(r, PairedRatio.CONFIDENCE);
    }

    @Test
    void theFirstChunkIsTheFirstRounds() {
        StoppingRule.Decision d = rule.decide(0, List.of(), 100, 10, 5);
        assertEquals(StoppingRule.Reason.CONTINUE, d.reason);
        assertEquals(StoppingRule.FIRST_ROUNDS, d.rounds);
    }

    @Test
    void aConfigurationStopsWhenItsHalfWidthIsReached() {
        PairedRatio tight = ratios(0.8, 0.004, 6);
        assertTrue(tight.relativeHalfWidth() <= StoppingRule.TARGET, PairedRows.text(tight));
        StoppingRule.Decision d = rule.decide(6, List.of(tight, ratios(1.4, 0.002, 6)), 1000, 10, 5);
        assertEquals(StoppingRule.Reason.REACHED, d.reason);
        assertEquals(0, d.rounds);
        assertTrue(d.stop() && d.why.startsWith("every interval within 5% of its ratio after 6 pairs"), d.why);
    }

    @Test
    void oneWideComparisonKeepsItsConfigurationGoingForAsManyRoundsAsItsSpreadAsks() {
        PairedRatio tight = ratios(0.8, 0.004, 3);
        PairedRatio wide = ratios(1.2, 0.05, 3);
        StoppingRule.Decision d = rule.decide(3, List.of(tight, wide), 10_000, 10, 5);
        assertEquals(StoppingRule.Reason.CONTINUE, d.reason);
        int needed = PairedRatio.pairsFor(StoppingRule.TARGET, wide.logSd, PairedRatio.CONFIDENCE, 1000);
        assertEquals(needed, d.pairsNeeded);
        assertEquals(needed - 3, d.rounds);
    }

    @Test
    void theNextChunkIsCutToWhatTheBudgetPaysFor() {
        PairedRatio wide = ratios(1.2, 0.05, 3);
        StoppingRule.Decision d = rule.decide(3, List.of(wide), 65, 10, 5);
        assertEquals(StoppingRule.Reason.CONTINUE, d.reason);
        assertEquals(6, d.rounds, "(65 s - 5 s per chunk) / 10 s per round");
        assertTrue(d.why.contains("the budget pays for 6 more"), d.why);
    }

    @Test
    void aConfigurationStopsWhenItsShareOfTheBudgetCannotPayForAnotherRound() {
        PairedRatio wide = ratios(1.2, 0.05, 3);
        StoppingRule.Decision d = rule.decide(3, List.of(wide), 14, 10, 5);
        assertEquals(StoppingRule.Reason.BUDGET, d.reason);
        assertTrue(d.why.startsWith("its share of the budget is spent after 3 pairs"), d.why);
        assertTrue(d.why.contains("the widest interval is"), d.why);
    }

    @Test
    void aComparisonWithoutAnIntervalIsTheWidest() {
        PairedRatio one = PairedRatio.ofRatios(List.of(1.1), PairedRatio.CONFIDENCE);
        PairedRatio tight = ratios(0.8, 0.004, 6);
        assertEquals(one, StoppingRule.widest(List.of(tight, one)));
        StoppingRule.Decision d = rule.decide(1, List.of(one), 1000, 10, 5);
        assertEquals(StoppingRule.Reason.CONTINUE, d.reason);
        assertEquals(StoppingRule.FIRST_ROUNDS - 1, d.rounds);
    }
}
