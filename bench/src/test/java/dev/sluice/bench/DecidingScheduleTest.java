package dev.sluice.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.report.BudgetAllocation;
import dev.sluice.report.PairedRun;
import dev.sluice.report.RunDirectory;
import dev.sluice.report.StoppingRule;
import dev.sluice.report.SyntheticResults;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DecidingScheduleTest {
    private static final List<String> STRATEGIES = List.of("per-batch", "buffered");

    /** Two paired sizes of two strategies, each with its raw write. */
    private static RunDirectory runDirectory(Path dir) throws IOException {
        Files.createDirectories(dir.resolve("runs"));
        return new RunDirectory(dir, PairedRun.ROUNDS, List.of(config("01-small", "small", 100),
                config("02-small-raw", "small-raw", 25), config("03-large", "large", 400),
                config("04-large-raw", "large-raw", 25)));
    }

    private static RunDirectory.Config config(String run, String name, long weight) {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("size", name.replace("-raw", ""));
        params.put("device", "native");
        return new RunDirectory.Config(run, name, weight, name.endsWith("-raw") ? List.of() : STRATEGIES, 3, params);
    }

    /** Rounds of per-batch at 100 ms and buffered at {@code ratios[r]} of it. */
    private static double[][] rounds(double... ratios) {
        double[][] t = new double[ratios.length][];
        for (int r = 0; r < ratios.length; r++) {
            t[r] = new double[] {100, 100 * ratios[r]};
        }
        return t;
    }

    private static void chunk(RunDirectory run, Path dir, String config, String size, int chunk, double seconds,
                              double... ratios) throws IOException {
        new SyntheticResults().paired(size, STRATEGIES, "none+none", rounds(ratios))
                .write(dir.resolve("runs/" + config + "-c" + chunk + ".json"));
        run.time(config + "-c" + chunk, (long) (seconds * 1e9));
    }

    @Test
    void everySizeHasItsFirstChunkInPlanOrderAndTheRunStopsOnceEveryComparisonIsDecided(@TempDir Path dir)
            throws Exception {
        RunDirectory run = runDirectory(dir);
        ChunkSchedule schedule = new DecidingSchedule(run, 1800, new BudgetAllocation());
        schedule.reach(run.config("01-small"), 0, 0);
        ChunkSchedule.Step step = schedule.next(0);
        assertEquals(List.of("01-small", 1, 3), List.of(step.config.run, step.chunk, step.rounds));
        chunk(run, dir, "01-small", "small", 1, 10, 0.5, 0.52, 0.49);
        assertEquals(ChunkSchedule.Step.Kind.DONE, schedule.next(10).kind, "large is not reached yet");
        assertTrue(schedule.reach(run.config("03-large"), 12, 125).contains("1788s of the budget left"));
        step = schedule.next(12);
        assertEquals(List.of("03-large", 1, 3), List.of(step.config.run, step.chunk, step.rounds));
        chunk(run, dir, "03-large", "large", 1, 40, 0.7, 0.71, 0.69);
        for (String config : List.of("01-small", "03-large")) {
            step = schedule.next(52);
            assertEquals(ChunkSchedule.Step.Kind.STOP, step.kind);
            assertEquals(config, step.config.run);
            assertEquals(StoppingRule.Reason.DECIDED, step.decision.reason);
            String json = Files.readString(dir.resolve("stops/" + config + ".json"));
            assertTrue(json.contains("\"reason\" : \"decided\"") && json.contains("\"pairs\" : 3"), json);
        }
        assertEquals(ChunkSchedule.Step.Kind.DONE, schedule.next(52).kind);
    }

    @Test
    void anOpenComparisonGetsTheNextChunkAndOneTheBudgetCannotPayForStopsSayingWhatItWouldTake(@TempDir Path dir)
            throws Exception {
        RunDirectory run = runDirectory(dir);
        ChunkSchedule schedule = new DecidingSchedule(run, 100, new BudgetAllocation());
        schedule.reach(run.config("01-small"), 0, 0);
        schedule.next(0);
        chunk(run, dir, "01-small", "small", 1, 3, 0.6, 1.3, 0.9);
        schedule.reach(run.config("03-large"), 3, 125);
        schedule.next(3);
        chunk(run, dir, "03-large", "large", 1, 30, 0.7, 0.71, 0.69);
        ChunkSchedule.Step step = schedule.next(33);
        assertEquals(ChunkSchedule.Step.Kind.CHUNK, step.kind, "small's comparison is open");
        assertEquals(List.of("01-small", 2), List.of(step.config.run, step.chunk));
        chunk(run, dir, "01-small", "small", 2, 96, 1.2, 0.7, 1.1);
        step = schedule.next(129);
        assertEquals(ChunkSchedule.Step.Kind.STOP, step.kind);
        assertEquals(StoppingRule.Reason.BUDGET, step.decision.reason);
        assertTrue(step.decision.why.startsWith("the budget is spent after 6 pairs with 1 of 1 comparisons open"),
                step.decision.why);
        assertEquals(StoppingRule.Reason.DECIDED, schedule.next(129).decision.reason, "large");
    }

    @Test
    void aDecidingScheduleNeedsABudget(@TempDir Path dir) throws Exception {
        RunDirectory run = runDirectory(dir);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new DecidingSchedule(run, 0, new BudgetAllocation()));
        assertTrue(e.getMessage().contains("not 0"), e.getMessage());
    }
}
