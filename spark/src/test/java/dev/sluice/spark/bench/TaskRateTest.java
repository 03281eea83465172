package dev.sluice.spark.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.device.TaskRate;
import dev.sluice.core.device.TaskRateCache;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The task-rate calibration's arithmetic: no Spark. */
class TaskRateTest {
    private static RunFigures run(long mapperStageMillis, long shuffleBytes) {
        return new RunFigures("per-batch", 1, false, 0, 0, mapperStageMillis, 0, 0, 0, 0, null, null, shuffleBytes, 0,
                0, 0, true, null, null, null, Map.of(), 0, 0);
    }

    @Test
    void theRateIsTheMedianOfShuffleBytesPerTaskOverMapperStageSeconds() {
        // 2 tasks: 100 MB per task in 1 s, 0.5 s and 2 s: 100, 200 and 50 MB/s; the median is 100 MB/s.
        List<RunFigures> runs = List.of(run(1000, 200_000_000), run(500, 200_000_000), run(2000, 200_000_000));
        assertEquals(100e6, SparkTaskRate.taskRate(runs, 2), 1e-6);
        assertEquals(150e6, SparkTaskRate.taskRate(runs.subList(0, 2), 2), 1e-6);
    }

    @Test
    void aRunWithoutTimeOrBytesHasNoRate() {
        assertThrows(IllegalArgumentException.class, () -> SparkTaskRate.taskRate(List.of(run(0, 1000)), 2));
        assertThrows(IllegalArgumentException.class, () -> SparkTaskRate.taskRate(List.of(), 2));
    }

    @Test
    void theCalibrationRunsTheSeedPresetsSmallShape() {
        Shape shape = new SparkTaskRate(BenchOptions.parse(new String[] {"--scale", "0.05", "--tasks", "3"}),
                RowSizing.SERIALIZED, System.err).calibrationShape();
        assertEquals(Shape.seed("small", 0.05, 3, RowSizing.SERIALIZED), shape);
        assertEquals(1, shape.batchesPerTask());
    }

    @Test
    void aRateKeptForThisConfigurationIsReadWithoutRunningSparkAndAnotherConfigurationHasAnotherKey(@TempDir Path dir)
            throws Exception {
        SparkTaskRate bench = new SparkTaskRate(BenchOptions.parse(new String[] {"--scale", "0.05", "--tasks", "2"}),
                RowSizing.SERIALIZED, System.err);
        TaskRateCache cache = new TaskRateCache(dir.resolve("task-rates.properties"));
        cache.store(bench.taskRateKey(dir), new TaskRate(28.5e6, "measured in Spark: test"));
        TaskRate found = bench.taskRate(dir, cache);
        assertEquals(28.5e6, found.bytesPerSecond);
        assertTrue(found.how.startsWith("from the cache"), found.how);
        SparkTaskRate other = new SparkTaskRate(BenchOptions.parse(new String[] {"--scale", "0.05", "--tasks", "1"}),
                RowSizing.SERIALIZED, System.err);
        assertNotEquals(bench.taskRateKey(dir), other.taskRateKey(dir));
        assertTrue(bench.taskRateKey(dir).get("harness").startsWith("spark-bench"));
    }
}
