package dev.sluice.strategy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.strategy.StrategySpec;
import dev.sluice.spi.Bytes;
import dev.sluice.spi.MemoryPlan;
import dev.sluice.spi.StoragePlan;
import dev.sluice.spi.TaskShape;
import dev.sluice.spi.WriterConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Pre-flight checks name the numbers: free space, open files, and memory charged for what a task can hold. */
class StoragePlanTest {
    private static final Path DIR = Path.of("/data/out");

    private static WriterConfig config(int partitions) {
        return WriterConfig.builder().partitions(partitions).outputDir(Path.of(System.getProperty("java.io.tmpdir")))
                .build();
    }

    private static StoragePlan plan(String strategy, int partitions, TaskShape shape) {
        StoragePlan plan = new StoragePlan();
        StrategySpec.parse("strategy", strategy).planStorage(plan, config(partitions), shape);
        return plan;
    }

    @Test
    void tooLittleFreeSpaceIsRefusedNamingTheBytesNeededAndUsable() {
        TaskShape shape = new TaskShape(2, 1_000 * Bytes.MiB, 5);
        StoragePlan perBatch = plan("per-batch", 200, shape);
        StoragePlan buffered = plan("buffered", 200, shape);
        assertTrue(buffered.bytesTotal() > 1.9 * perBatch.bytesTotal(), "several batches' partials and the merge");
        String refusal = buffered.refusal(DIR, Bytes.GiB, Long.MAX_VALUE);
        assertTrue(refusal.contains("needs up to 4.1 GiB on the file system of /data/out")
                && refusal.contains("1.0 GiB usable") && refusal.contains("twice"), refusal);
        assertNull(buffered.refusal(DIR, 100 * Bytes.GiB, Long.MAX_VALUE));
    }

    @Test
    void moreOpenFilesThanTheLimitAreRefusedNamingBoth() {
        StoragePlan plan = plan("per-batch", 100_000, new TaskShape(1, 4 * Bytes.MiB, 1));
        assertEquals(100_003, plan.openFilesTotal());
        String refusal = plan.refusal(DIR, Long.MAX_VALUE, 20_000);
        assertTrue(refusal.contains("needs up to 100003 open files") && refusal.contains("may open 20000")
                && refusal.contains("ulimit -n"), refusal);
        assertNull(plan("buffered", 100_000, new TaskShape(1, 4 * Bytes.MiB, 1)).refusal(DIR, Long.MAX_VALUE, 20_000),
                "a consolidating writer keeps a few files open, whatever the partitions");
    }

    @Test
    void aTinyTaskIsNotChargedAFullInFlightQuota() {
        MemoryPlan plan = new MemoryPlan();
        StrategySpec.parse("strategy", "buffered").planMemory(plan, config(200), new TaskShape(1, 4 * Bytes.MiB, 1));
        assertTrue(plan.heapTotal() <= 2 * 4 * Bytes.MiB, "heap records: " + plan.heapTotal());
        MemoryPlan perBatch = new MemoryPlan();
        StrategySpec.parse("strategy", "per-batch").planMemory(perBatch, config(200), new TaskShape(1, 4 * Bytes.MiB, 1));
        assertTrue(perBatch.offHeapTotal() < 16 * Bytes.MiB, "per-batch: " + perBatch.offHeapTotal());
    }
}
