package dev.sluice.strategy.consolidating;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.strategy.Presets;
import dev.sluice.core.strategy.StrategySpec;
import dev.sluice.core.verify.Verifier;
import dev.sluice.spi.MapOutput;
import dev.sluice.spi.PartitionReader;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.strategy.support.HostBufferPool;
import dev.sluice.testkit.Leaks;
import dev.sluice.testkit.MapTaskRun;
import java.nio.file.Path;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code pool=true}: map tasks after the first find their partials' and records' buffers in the pool. */
class BufferPoolReuseTest {
    @TempDir
    Path dir;

    @Test
    void laterMapTasksOfTheSameShapeReuseTheFirstOnesBuffersAndCloseFreesEverything() throws Exception {
        InputSpec spec = InputSpec.of(DataSize.TINY, 0.25).withBatches(3);
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(spec, Partitioning.ROUNDROBIN, 13, allocator)) {
            long held = run.heldBytes();
            ShuffleCodec codec = ShuffleCodec.LZ4_BLOCK;
            WriterConfig config = WriterConfig.builder().partitions(13).threads(3)
                    .outputDir(dir).build();
            CountedStorage storage = new CountedStorage();
            StrategySpec best = StrategySpec.parse("strategy", Presets.CONSOLIDATED_BEST + ":chunk=64k");
            try (ShuffleExecutor executor = best.createExecutor(config, storage, allocator)) {
                HostBufferPool pool = ((ConsolidatingExecutor) executor).recordPool();
                long freshAfterFirst = -1;
                long takenAfterFirst = 0;
                long reusedAfterFirst = 0;
                for (int task = 0; task < 5; task++) {
                    try (MapOutput output = run.write(executor, codec);
                         PartitionReader reader = output.openReader(storage)) {
                        assertTrue(Verifier.verify(reader, run.expected, run.input.schema, codec, allocator).ok());
                        output.delete(storage);
                    }
                    if (task == 0) {
                        freshAfterFirst = pool.freshBytes();
                        takenAfterFirst = pool.taken();
                        reusedAfterFirst = pool.reused();
                        assertTrue(freshAfterFirst > 0);
                    }
                }
                // How many records are in flight at once depends on the threads' timing, so a later task may need a
                // few buffers more than the first; most of what the later tasks take is reused.
                assertTrue(pool.freshBytes() < 2 * freshAfterFirst, pool.freshBytes() + " bytes fresh after 5 tasks, "
                        + freshAfterFirst + " after the first");
                long later = pool.taken() - takenAfterFirst;
                assertTrue(pool.reused() - reusedAfterFirst > later * 9 / 10, (pool.reused() - reusedAfterFirst)
                        + " of " + later + " buffers reused after the first task");
                assertTrue(pool.idleBytes() > 0, "the pool keeps what the tasks gave back");
            }
            assertEquals(0, storage.filesLeft());
            Leaks.assertNone(allocator, held, "consolidated-best");
        }
    }
}
