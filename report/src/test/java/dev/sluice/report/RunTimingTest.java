package dev.sluice.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a run's time went, and what kept each undecided comparison open: the first screen's words. */
class RunTimingTest {
    @Test
    void theChunksTheReferencesAndTheNoiseFloorAreToldApartWithTheBudgetsShare(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("timing.tsv"), "01-noise-floor\t10.000\n02-small-c1\t70.500\n03-small-raw\t3.000\n"
                + "04-small-floor\t9.000\n05-small-paced\t8.000\n02-small-c2\t50.000\n06-large-c1-s2\t100.000\n");
        Files.writeString(dir.resolve("plan.txt"), "# seed: ...\n# paired rounds (the preset's): ...; or the 1800 s "
                + "budget (the preset's) is spent\n");
        RunTiming t = RunTiming.read(dir).orElseThrow();
        assertEquals(220.5, t.chunkSeconds, 1e-9);
        assertEquals(20.0, t.referenceSeconds, 1e-9);
        assertEquals(10.0, t.noiseFloorSeconds, 1e-9);
        assertEquals(1800, t.budget);
        assertEquals("Overhead: the references (raw writes, floors, paced writes) took 20 s and the noise floor 10 s, "
                + "12.0% of the run's 251 s of JMH runs (1.7% of its 1800 s budget); the paired chunks 221 s "
                + "(timing.tsv).", t.line());
        assertTrue(RunTiming.read(dir.resolve("none")).isEmpty(), "no timing.tsv, no line");
    }

    @Test
    void referencesThatWaitedAndDidNotFitAreNamedWithWhy(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("timing.tsv"), "02-small-c1\t90.000\n03-small-raw\t3.000\n");
        Files.writeString(dir.resolve(RunTiming.UNMEASURED), "11-large-raw\tthe budget was spent\n"
                + "13-large-paced\tits floor large-floor was not measured\n");
        RunTiming t = RunTiming.read(dir).orElseThrow();
        assertEquals(List.of("11-large-raw (the budget was spent)",
                "13-large-paced (its floor large-floor was not measured)"), t.unmeasured);
        assertTrue(t.line().endsWith("; not measured, having waited for the comparisons (unmeasured.tsv; the next run "
                + "of this build measures them first): 11-large-raw (the budget was spent), 13-large-paced (its floor "
                + "large-floor was not measured)."), t.line());
    }

    @Test
    void anUndecidedComparisonIsKeptOpenByANearZeroEffectTheBudgetOrItsSpread() {
        BudgetAllocation allocation = new BudgetAllocation();
        PairedRatio nearNone = PairedRatio.ofRatios(List.of(0.97, 1.01, 0.99, 0.95), PairedRatio.CONFIDENCE);
        assertEquals("an effect near none (under 5%)", PairedSection.limit(allocation, nearNone, 3600));
        PairedRatio wide = PairedRatio.ofRatios(List.of(0.6, 1.2, 0.7, 1.1), PairedRatio.CONFIDENCE);
        assertEquals("the budget", PairedSection.limit(allocation, wide, 300), "5 more minutes");
        assertTrue(PairedSection.limit(allocation, wide, 3600).startsWith("the spread of its pairs (sd "),
                "an hour more");
    }
}
