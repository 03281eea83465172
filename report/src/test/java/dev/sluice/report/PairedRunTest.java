package dev.sluice.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A paired configuration read back from its chunks (both designs), made into one result per strategy, compared pair
 * by pair.
 */
class PairedRunTest {
    @Test
    void aRoundsForkIsDealtToItsStrategiesInRoundOrderAndEveryChunkIsAForkOfTheirRows(@TempDir Path dir)
            throws Exception {
        RunDirectory run = PairedDirectories.tinyWithRawWrite(dir, PairedRun.ROUNDS);
        new SyntheticResults().paired("tiny", PairedDirectories.FOUR, "none+none+machine+none", PairedDirectories.rounds(3, 0))
                .write(dir.resolve("runs/01-tiny-c1.json"));
        new SyntheticResults().paired("tiny", PairedDirectories.FOUR, "none+none+machine+none", PairedDirectories.rounds(2, 3))
                .write(dir.resolve("runs/01-tiny-c2.json"));
        PairedRun paired = run.paired(run.config("01-tiny"));
        assertEquals(2, paired.chunks());
        assertEquals(5, paired.pairs());
        assertEquals(List.of(100.0, 110.0, 120.0, 130.0, 140.0), paired.times(0));
        assertEquals(List.of(80.0, 88.0, 96.0, 104.0, 112.0), paired.times(1));

        List<PairedRatio> mapper = Comparisons.mapper(paired);
        // Against per-batch (3), then against ideal (3): the drift of 40% over the rounds cancels in every pair.
        assertEquals(6, mapper.size());
        assertEquals(0.8, mapper.get(0).ratio, 1e-9);
        assertEquals(0.0, mapper.get(0).halfWidth(), 1e-9);
        assertEquals(2.5, mapper.get(3).ratio, 1e-9, "per-batch over ideal");

        run.writeResults();
        List<JmhResults.Row> rows = JmhResults.read(dir.resolve("jmh-result.json"));
        assertEquals(4, rows.size(), "one row per strategy; the raw write has no result yet");
        JmhResults.Row skip = rows.get(2);
        assertEquals("async:skipMerge=true", skip.param("strategy"));
        assertEquals("machine", skip.param("memoryLimit"), "its own limit, not the list");
        assertEquals(PairedRun.ROUNDS, skip.pairing());
        assertTrue(skip.isWave());
        assertEquals(List.of(50.0, 55.0, 60.0, 65.0, 70.0), skip.runs);
        assertEquals(60.0, skip.score, 1e-9);
        assertEquals(List.of(5.0, 5.5, 6.0, 6.5, 7.0), skip.metricRuns("query.readMillis"));
        assertEquals(70.0, skip.metric("io.peakBufferedBytes").getAsDouble(), 1e-9, "a maximum stays a maximum");
        PairedRatio toBase = PairedRows.toBaseline(rows.get(1), rows);
        assertEquals(0.8, toBase.ratio, 1e-9);

        List<Comparisons.Entry> entries = Comparisons.read(dir.resolve("comparisons.json"));
        assertEquals(12, entries.size(), "3 against per-batch and 3 against ideal, for the mapper stage and the query");
        Comparisons.Entry first = entries.get(0);
        assertEquals("tiny", first.param("size"));
        assertEquals("native", first.param("device"));
        assertEquals("buffered", first.strategy);
        assertEquals("per-batch", first.baseline);
        assertEquals(5, first.ratio.pairs());
        assertTrue(first.withinTarget());
    }

    @Test
    void theForksDesignPairsTheSameIterationOfEachStrategysForkOfAChunk(@TempDir Path dir) throws Exception {
        RunDirectory run = PairedDirectories.tinyWithRawWrite(dir, PairedRun.FORKS);
        double[][] t = PairedDirectories.rounds(3, 0);
        for (int s = 0; s < PairedDirectories.FOUR.size(); s++) {
            List<Double> waves = new java.util.ArrayList<>();
            for (double[] round : t) {
                waves.add(round[s]);
            }
            new SyntheticResults().other("dev.sluice.jmh.write.ShuffleWriteBenchmark.wave", Map.of("strategy",
                    PairedDirectories.FOUR.get(s), "size", "tiny"), waves).write(dir.resolve("runs/01-tiny-c1-s" + s + ".json"));
        }
        assertEquals(PairedRun.FORKS, run.designOnDisk(run.config("01-tiny")));
        PairedRun paired = run.paired(run.config("01-tiny"));
        assertEquals(3, paired.pairs());
        assertEquals(0.5, Comparisons.mapper(paired).get(1).ratio, 1e-9);
    }

    @Test
    void aChunkWhoseStrategiesDoNotPairUpIsRefused(@TempDir Path dir) throws Exception {
        RunDirectory run = PairedDirectories.tinyWithRawWrite(dir, PairedRun.FORKS);
        for (int s = 0; s < PairedDirectories.FOUR.size(); s++) {
            new SyntheticResults().other("dev.sluice.jmh.write.ShuffleWriteBenchmark.wave", Map.of("strategy",
                    PairedDirectories.FOUR.get(s)), s == 2 ? List.of(1.0, 2.0) : List.of(1.0, 2.0, 3.0))
                    .write(dir.resolve("runs/01-tiny-c1-s" + s + ".json"));
        }
        IOException e = assertThrows(IOException.class, () -> run.paired(run.config("01-tiny")));
        assertTrue(e.getMessage().contains("they do not pair up"), e.getMessage());
    }
}
