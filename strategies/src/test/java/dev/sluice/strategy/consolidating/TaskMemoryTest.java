package dev.sluice.strategy.consolidating;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.strategy.StrategySpec;
import dev.sluice.core.verify.Verifier;
import dev.sluice.spi.Bytes;
import dev.sluice.spi.MapOutput;
import dev.sluice.spi.MapTask;
import dev.sluice.spi.PartitionReader;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.ShuffleRecord;
import dev.sluice.spi.ShuffleWriter;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.memory.Spillable;
import dev.sluice.spi.memory.TaskMemory;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.testkit.Leaks;
import dev.sluice.testkit.MapTaskRun;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The consolidating writers' partials are memory of the map task as its host manages it ({@link TaskMemory}; Spark's
 * task memory manager inside Spark): charged before they are allocated, sent to file where the task gets less, given
 * back to the last byte, and spilled, finished ones the largest first, when the host asks.
 */
class TaskMemoryTest {
    private static final ShuffleCodec CODEC = ShuffleCodec.LZ4_BLOCK;

    @TempDir
    Path dir;

    /**
     * A task's memory of {@code cap} bytes, as Spark's grants it: a request that does not fit first asks the task's
     * spillable to give back what is missing (Spark's self-spill), then gets what is left.
     */
    static final class CappedTaskMemory implements TaskMemory {
        private final long cap;
        private long held;
        private long released;
        private long peak;
        private long asked;
        private Spillable spillable;

        CappedTaskMemory(long cap) {
            this.cap = cap;
        }

        @Override
        public synchronized long acquire(long bytes) {
            if (held + bytes > cap && spillable != null) {
                asked++;
                try {
                    spillable.spill(held + bytes - cap);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            long granted = Math.max(0, Math.min(bytes, cap - held));
            held += granted;
            peak = Math.max(peak, held);
            return granted;
        }

        @Override
        public synchronized void release(long bytes) {
            held -= bytes;
            released += bytes;
            assertTrue(held >= 0, "released more than granted: " + held);
        }

        @Override
        public synchronized void spillable(Spillable spillable) {
            this.spillable = spillable;
        }

        synchronized long held() {
            return held;
        }

        synchronized long released() {
            return released;
        }

        synchronized Spillable spillable() {
            return spillable;
        }
    }

    private WriterConfig config() {
        return WriterConfig.builder().partitions(50).threads(2).outputDir(dir).build();
    }

    private static void verify(MapTaskRun run, MapOutput output, CountedStorage storage, BufferAllocator allocator)
            throws Exception {
        try (PartitionReader reader = output.openReader(storage)) {
            assertTrue(Verifier.verify(reader, run.expected, run.input.schema, CODEC, allocator).ok());
        }
    }

    @Test
    @Timeout(120)
    void partialsTheTaskCannotHaveGoToFileAndTheTaskGetsEveryByteBack() throws Exception {
        // Eight batches of about 2 MB, a 4 MiB partial each, in a task of 10 MiB: the third partial does not fit
        // until a finished one went to file.
        InputSpec spec = InputSpec.of(DataSize.TINY, 4).withBatches(8);
        CappedTaskMemory memory = new CappedTaskMemory(10 * Bytes.MiB);
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(spec, Partitioning.ROUNDROBIN, 50, allocator)) {
            for (String strategy : new String[] {"buffered:initialPartial=4m:maxBytesInFlight=1m",
                    "async:initialPartial=4m:maxBytesInFlight=1m"}) {
                CountedStorage storage = new CountedStorage();
                try (ShuffleExecutor executor = StrategySpec.parse("strategy", strategy)
                        .createExecutor(config(), storage, allocator)) {
                    MapTask given = run.task(CODEC);
                    long spilled;
                    try (ShuffleWriter writer = executor.createMapOutputWriter(
                            new MapTask(given.shuffleId, given.mapId, given.format, null, memory))) {
                        assertNotNull(memory.spillable(), strategy + ": the writer is the task's spillable");
                        for (ShuffleRecord record : run.records(CODEC)) {
                            writer.write(record);
                        }
                        try (MapOutput output = writer.commit()) {
                            spilled = writer.spilledBytes();
                            assertTrue(spilled > 0, strategy + ": nothing spilled in a task of 10 MiB");
                            assertTrue(spilled <= storage.counters().snapshot().spilledBytes, strategy + ": "
                                    + spilled + " bytes spilled, more than went to spill files");
                            assertEquals(0, memory.held(), strategy + ": the task got every byte back at the commit");
                            assertNull(memory.spillable(), strategy + ": a committed writer is not asked to spill");
                            verify(run, output, storage, allocator);
                        }
                    }
                    assertTrue(memory.peak <= 10 * Bytes.MiB, strategy + ": the task held " + memory.peak);
                    assertTrue(memory.asked > 0, strategy + ": the task never asked for memory back");
                }
                assertEquals(0, storage.filesLeft(), strategy);
            }
            Leaks.assertNone(allocator, run.heldBytes(), "task memory");
        }
    }

    @Test
    @Timeout(120)
    void whenTheHostAsksTheWritersFinishedPartialsGoToFileAndTheirMemoryComesBack() throws Exception {
        InputSpec spec = InputSpec.of(DataSize.TINY, 4).withBatches(4);
        CappedTaskMemory memory = new CappedTaskMemory(Long.MAX_VALUE / 2);
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(spec, Partitioning.ROUNDROBIN, 50, allocator)) {
            CountedStorage storage = new CountedStorage();
            try (ShuffleExecutor executor = StrategySpec.parse("strategy", "buffered:initialPartial=4m")
                    .createExecutor(config(), storage, allocator)) {
                MapTask given = run.task(CODEC);
                try (ShuffleWriter writer = executor.createMapOutputWriter(
                        new MapTask(given.shuffleId, given.mapId, given.format, null, memory))) {
                    var records = run.records(CODEC);
                    // Every record of the first three batches: their partials are finished once the fourth began.
                    int i = 0;
                    while (records.get(i).inputBatch() != records.get(records.size() - 1).inputBatch()) {
                        writer.write(records.get(i++));
                    }
                    writer.write(records.get(i++));
                    long releasedBefore = memory.released();
                    long freed = waitForSpill(memory.spillable());
                    assertTrue(memory.released() - releasedBefore >= freed, "the spill freed " + freed
                            + " bytes, the task got " + (memory.released() - releasedBefore) + " back");
                    assertTrue(writer.spilledBytes() > 0, "the spill is counted");
                    while (i < records.size()) {
                        writer.write(records.get(i++));
                    }
                    try (MapOutput output = writer.commit()) {
                        verify(run, output, storage, allocator);
                    }
                    assertEquals(0, memory.held());
                }
            }
            assertEquals(0, storage.filesLeft());
            Leaks.assertNone(allocator, run.heldBytes(), "task memory spill");
        }
    }

    /** Asks until a merger finished a partial (they finish on writer threads), bounded by the test's timeout. */
    private static long waitForSpill(Spillable spillable) throws Exception {
        while (true) {
            long freed = spillable.spill(Long.MAX_VALUE);
            if (freed > 0) {
                return freed;
            }
            Thread.sleep(10);
        }
    }
}
