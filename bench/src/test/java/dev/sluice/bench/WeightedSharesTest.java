package dev.sluice.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.report.PairedDirectories;
import dev.sluice.report.PairedRun;
import dev.sluice.report.RunDirectory;
import dev.sluice.report.StoppingRule;
import dev.sluice.report.SyntheticResults;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The chunks scripts/bench.sh's runner is given without a deciding budget (WeightedShares). */
class WeightedSharesTest {
    @Test
    void withoutABudgetAConfigurationRunsThePlansRoundsOnceThenStops(@TempDir Path dir) throws Exception {
        RunDirectory run = PairedDirectories.tinyWithRawWrite(dir, PairedRun.ROUNDS);
        ChunkSchedule schedule = new WeightedShares(run, 0, new StoppingRule());
        assertEquals(null, schedule.reach(run.config("01-tiny"), 0, 0), "no budget to share");
        ChunkSchedule.Step first = schedule.next(0);
        assertEquals(ChunkSchedule.Step.Kind.CHUNK, first.kind);
        assertEquals(List.of("01-tiny", 1, 3), List.of(first.config.run, first.chunk, first.rounds),
                "the plan's rounds in the first chunk");
        new SyntheticResults().paired("tiny", PairedDirectories.FOUR, "none+none+machine+none", PairedDirectories.rounds(3, 0))
                .write(dir.resolve("runs/01-tiny-c1.json"));
        ChunkSchedule.Step stop = schedule.next(5);
        assertEquals(ChunkSchedule.Step.Kind.STOP, stop.kind);
        assertEquals("rounds: the 3 rounds asked for, without a budget", stop.decision.reason.text + ": "
                + stop.decision.why);
        assertEquals(ChunkSchedule.Step.Kind.DONE, schedule.next(5).kind, "nothing more until the next size");
        String json = Files.readString(dir.resolve("stops/01-tiny.json"));
        assertTrue(json.contains("\"reason\" : \"rounds\"") && json.contains("\"pairs\" : 3"), json);
        assertTrue(json.contains("\"size\" : \"tiny\"") && json.contains("\"seconds\" : 5.0"), json);
    }

    @Test
    void underABudgetAReachedConfigurationStopsAndSaysSo(@TempDir Path dir) throws Exception {
        RunDirectory run = PairedDirectories.tinyWithRawWrite(dir, PairedRun.ROUNDS);
        new SyntheticResults().paired("tiny", PairedDirectories.FOUR, "none+none+machine+none", PairedDirectories.rounds(3, 0))
                .write(dir.resolve("runs/01-tiny-c1.json"));
        run.time("01-tiny-c1", 5_000_000_000L);
        // 125 s among weights 100 (tiny) and 25 (its raw write): tiny's share is 100 s.
        ChunkSchedule schedule = new WeightedShares(run, 125, new StoppingRule());
        assertEquals("share of the budget: 100s", schedule.reach(run.config("01-tiny"), 0, 0));
        ChunkSchedule.Step step = schedule.next(0);
        assertEquals(ChunkSchedule.Step.Kind.STOP, step.kind);
        assertEquals(StoppingRule.Reason.REACHED, step.decision.reason);
        assertTrue(step.decision.why.startsWith("every interval within 5% of its ratio after 3 pairs"),
                step.decision.why);
        assertEquals(110, Math.round(run.metric("tiny", "query.readMillis") * 10),
                "a paired size's metric reads its baseline's waves");
    }

    @Test
    void underABudgetTheShareIsOfWhatIsLeftByWeight(@TempDir Path dir) throws Exception {
        RunDirectory run = PairedDirectories.tinyWithRawWrite(dir, PairedRun.ROUNDS);
        ChunkSchedule schedule = new WeightedShares(run, 125, new StoppingRule());
        // 25 s spent, nothing done yet: 100 s left, tiny's 100 of the 125 still to run.
        assertEquals("share of the budget: 80s", schedule.reach(run.config("01-tiny"), 25, 0));
        ChunkSchedule.Step first = schedule.next(25);
        assertEquals(StoppingRule.FIRST_ROUNDS, first.rounds, "the stopping rule's first chunk");
    }
}
