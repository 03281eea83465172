package dev.sluice.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A paired configuration read back from its chunks (both designs), made into one result per strategy, compared pair
 * by pair; and what scripts/bench.sh is told to run next.
 */
class PairedRunTest {
    private static final List<String> STRATEGIES = List.of("per-batch", "buffered", "async:skipMerge=true", "ideal");
    private static final String ARGS = "PairedWaveBenchmark -p strategies=per-batch+buffered+async:skipMerge=true+ideal"
            + " -p memoryLimit=none+none+machine+none -p size=tiny -p tasks=1 -f 1 -foe true -wi 4 -i 12";

    /** Round r: per-batch 100 + 10r ms, buffered 80% of it, skip-merge 50%, ideal 40%: drift that pairs cancel. */
    private static double[][] rounds(int count, int from) {
        double[][] t = new double[count][];
        for (int r = 0; r < count; r++) {
            double base = 100 + 10 * (r + from);
            t[r] = new double[] {base, 0.8 * base, 0.5 * base, 0.4 * base};
        }
        return t;
    }

    private static RunDirectory runDirectory(Path dir) throws IOException {
        Files.createDirectories(dir.resolve("runs"));
        Files.writeString(dir.resolve("plan.txt"), "# tiny\n# paired rounds\n#% paired=rounds budget=none\n"
                + "tiny|100|" + ARGS + "\ntiny-raw|25|RawWriteBenchmark -p fileBytes=@wave.dataBytesPerTask:tiny\n");
        return new RunDirectory(dir);
    }

    @Test
    void aRoundsForkIsDealtToItsStrategiesInRoundOrderAndEveryChunkIsAForkOfTheirRows(@TempDir Path dir)
            throws Exception {
        RunDirectory run = runDirectory(dir);
        new SyntheticResults().paired("tiny", STRATEGIES, "none+none+machine+none", rounds(3, 0))
                .write(dir.resolve("runs/01-tiny-c1.json"));
        new SyntheticResults().paired("tiny", STRATEGIES, "none+none+machine+none", rounds(2, 3))
                .write(dir.resolve("runs/01-tiny-c2.json"));
        PairedRun paired = run.paired(run.config("01-tiny"), PairedRun.ROUNDS);
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
        RunDirectory run = runDirectory(dir);
        double[][] t = rounds(3, 0);
        for (int s = 0; s < STRATEGIES.size(); s++) {
            List<Double> waves = new java.util.ArrayList<>();
            for (double[] round : t) {
                waves.add(round[s]);
            }
            new SyntheticResults().other("dev.sluice.jmh.write.ShuffleWriteBenchmark.wave", Map.of("strategy",
                    STRATEGIES.get(s), "size", "tiny"), waves).write(dir.resolve("runs/01-tiny-c1-s" + s + ".json"));
        }
        assertEquals(PairedRun.FORKS, run.designOnDisk(run.config("01-tiny")));
        PairedRun paired = run.paired(run.config("01-tiny"), PairedRun.FORKS);
        assertEquals(3, paired.pairs());
        assertEquals(0.5, Comparisons.mapper(paired).get(1).ratio, 1e-9);
    }

    @Test
    void aChunkWhoseStrategiesDoNotPairUpIsRefused(@TempDir Path dir) throws Exception {
        RunDirectory run = runDirectory(dir);
        for (int s = 0; s < STRATEGIES.size(); s++) {
            new SyntheticResults().other("dev.sluice.jmh.write.ShuffleWriteBenchmark.wave", Map.of("strategy",
                    STRATEGIES.get(s)), s == 2 ? List.of(1.0, 2.0) : List.of(1.0, 2.0, 3.0))
                    .write(dir.resolve("runs/01-tiny-c1-s" + s + ".json"));
        }
        IOException e = assertThrows(IOException.class, () -> run.paired(run.config("01-tiny"), PairedRun.FORKS));
        assertTrue(e.getMessage().contains("they do not pair up"), e.getMessage());
    }

    private static String next(RunDirectory run, String design, double left) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        NextChunk.next(run, "01-tiny", design, left, 0, new StoppingRule(), new PrintStream(bytes, true,
                StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void withoutABudgetAConfigurationRunsThePlansRoundsOnceThenStops(@TempDir Path dir) throws Exception {
        RunDirectory run = runDirectory(dir);
        assertEquals("01-tiny-c1|PairedWaveBenchmark -p strategies=per-batch+buffered+async:skipMerge=true+ideal -p "
                + "memoryLimit=none+none+machine+none -p size=tiny -p tasks=1 -f 1 -foe true -wi 4 -i 12\n",
                next(run, PairedRun.ROUNDS, Double.POSITIVE_INFINITY));
        new SyntheticResults().paired("tiny", STRATEGIES, "none+none+machine+none", rounds(3, 0))
                .write(dir.resolve("runs/01-tiny-c1.json"));
        assertEquals("stop|rounds: the 3 rounds asked for, without a budget\n",
                next(run, PairedRun.ROUNDS, Double.POSITIVE_INFINITY));
        String stop = Files.readString(dir.resolve("stops/01-tiny.json"));
        assertTrue(stop.contains("\"reason\" : \"rounds\"") && stop.contains("\"pairs\" : 3"), stop);
    }

    @Test
    void theForksDesignRunsOneForkPerStrategyEachChunkStartingOneFurtherOnWithItsOwnLimit(@TempDir Path dir)
            throws Exception {
        RunDirectory run = runDirectory(dir);
        String[] lines = next(run, PairedRun.FORKS, Double.POSITIVE_INFINITY).split("\n");
        assertEquals(4, lines.length);
        assertEquals("01-tiny-c1-s0|ShuffleWriteBenchmark -p strategy=per-batch -p memoryLimit=none -p size=tiny -p "
                + "tasks=1 -f 1 -foe true -wi 1 -i 3", lines[0]);
        assertTrue(lines[2].startsWith("01-tiny-c1-s2|ShuffleWriteBenchmark -p strategy=async:skipMerge=true -p "
                + "memoryLimit=machine "), lines[2]);
    }

    @Test
    void underABudgetAReachedConfigurationStopsAndSaysSo(@TempDir Path dir) throws Exception {
        RunDirectory run = runDirectory(dir);
        new SyntheticResults().paired("tiny", STRATEGIES, "none+none+machine+none", rounds(3, 0))
                .write(dir.resolve("runs/01-tiny-c1.json"));
        Files.writeString(dir.resolve("timing.tsv"), "01-tiny-c1\t5.000\n");
        String out = next(run, PairedRun.ROUNDS, 100);
        assertTrue(out.startsWith("stop|reached: every interval within 5% of its ratio after 3 pairs"), out);
        assertEquals(110, Math.round(run.metric("tiny", "query.readMillis") * 10),
                "the @ reference of a paired size reads its baseline's waves");
    }
}
