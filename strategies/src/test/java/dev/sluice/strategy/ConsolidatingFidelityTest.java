package dev.sluice.strategy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.run.MapTaskResult;
import dev.sluice.core.run.MapTaskRunner;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.strategy.StrategySpec;
import dev.sluice.core.verify.VerificationResult;
import dev.sluice.core.verify.Verifier;
import dev.sluice.spi.Bytes;
import dev.sluice.spi.InvalidParameterException;
import dev.sluice.spi.MapOutput;
import dev.sluice.spi.PartitionReader;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.storage.IoSnapshot;
import dev.sluice.testkit.Leaks;
import dev.sluice.testkit.MapTaskRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.DefaultAllocationManagerOption;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The consolidating strategies at upstream's defaults do what PR-13724 and PR-14090 do to storage and memory: one
 * batch per task is one large write; several are merged through a 64 KiB stream; nothing spills without a memory
 * limit; skip-merge writes nothing and needs a limit. Sluice's options change exactly what they say.
 */
class ConsolidatingFidelityTest {
    /** The codec of every record here. */
    private static final ShuffleCodec CODEC = ShuffleCodec.LZ4_BLOCK;

    @TempDir
    Path dir;

    /** About 20 MB of input in {@code batches} batches, over few partitions so that segments are large. */
    private static InputSpec input(int batches) {
        InputSpec spec = InputSpec.of(DataSize.TINY, 5);
        return spec.withBatchBytes((long) (spec.targetBytes() / batches * 1.02));
    }

    private WriterConfig config(int partitions, long memoryLimit) {
        return WriterConfig.builder().partitions(partitions).threads(2)
                .memoryLimit(memoryLimit).outputDir(dir).build();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"buffered", "async", "buffered:recordBuffer=direct:compression=pool"})
    void oneBatchPerTaskIsOneWriteOfThePartialAndNoTempFile(String strategy) throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(input(1), Partitioning.ROUNDROBIN, 200, allocator)) {
            assertEquals(1, run.input.batches);
            CountedStorage storage = new CountedStorage();
            try (MapOutput output = run.write(Strategies.spec(strategy), config(200, WriterConfig.UNLIMITED), CODEC, storage,
                    allocator)) {
                IoSnapshot io = storage.counters().snapshot();
                assertEquals(1.0, io.amplification(), 0.0);
                assertEquals(2, io.writeCalls, "the data file in one call, the index in one");
                assertEquals(2, io.filesCreated, "only the data and index files");
                assertEquals(0, io.spilledBytes);
                assertEquals(0, storage.filesLeft());
                assertTrue(verify(run, output, storage, allocator).ok());
            }
            Leaks.assertNone(allocator, run.heldBytes(), strategy);
        }
    }

    @Test
    void oneBatchThatWentToFileIsRenamedIntoTheDataFile() throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(input(1), Partitioning.ROUNDROBIN, 200, allocator)) {
            CountedStorage storage = new CountedStorage();
            // A partial that may not grow past 64 KiB continues as a file, which the commit renames.
            try (MapOutput output = run.write(Strategies.spec("buffered:initialPartial=64k:maxPartial=64k"),
                    config(200, WriterConfig.UNLIMITED), CODEC, storage, allocator)) {
                IoSnapshot io = storage.counters().snapshot();
                assertEquals(1.0, io.amplification(), 0.0);
                assertEquals(2, io.filesCreated, "the partial file became the data file");
                assertEquals(2, io.renames);
                assertEquals(0, io.bytesRead);
                assertEquals(0, storage.filesLeft());
                assertTrue(verify(run, output, storage, allocator).ok());
            }
            Leaks.assertNone(allocator, run.heldBytes(), "file partial");
        }
    }

    @ParameterizedTest(name = "{0}: {1} to {2} write calls per MiB")
    @CsvSource({"buffered, 15, 19", "async, 15, 19", "buffered:merge=gather, 0, 1", "async:merge=gather, 0, 1"})
    void severalBatchesMergeThroughA64KiBStreamOrGatheringWrites(String strategy, double min, double max)
            throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(input(5), Partitioning.ROUNDROBIN, 4, allocator)) {
            assertEquals(5, run.input.batches);
            CountedStorage storage = new CountedStorage();
            try (MapOutput output = run.write(Strategies.spec(strategy), config(4, WriterConfig.UNLIMITED), CODEC, storage,
                    allocator)) {
                IoSnapshot io = storage.counters().snapshot();
                double perMiB = io.writeCalls / (io.committedBytes / (double) Bytes.MiB);
                assertTrue(perMiB >= min && perMiB <= max, strategy + ": " + perMiB + " write calls per MiB, "
                        + io.writeSizeHistogram());
                assertEquals(1.0, io.amplification(), 0.0);
                assertEquals(0, io.spilledBytes);
                assertEquals(2, io.filesCreated);
                assertTrue(verify(run, output, storage, allocator).ok());
            }
            Leaks.assertNone(allocator, run.heldBytes(), strategy);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"buffered", "async", "buffered:initialPartial=64k", "async:initialPartial=64k",
        "buffered:initialPartial=64k:merger=blocking"})
    void withoutAMemoryLimitNothingSpills(String strategy) throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(input(3), Partitioning.HASH, 50, allocator)) {
            CountedStorage storage = new CountedStorage();
            try (MapOutput output = run.write(Strategies.spec(strategy), config(50, WriterConfig.UNLIMITED), CODEC, storage,
                    allocator)) {
                IoSnapshot io = storage.counters().snapshot();
                assertEquals(0, io.spilledBytes, strategy + " spilled");
                assertEquals(2, io.filesCreated);
                assertTrue(verify(run, output, storage, allocator).ok());
            }
        }
    }

    @Test
    void skipMergeUnderItsLimitWritesNothing() throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(input(3), Partitioning.HASH, 200, allocator)) {
            CountedStorage storage = new CountedStorage();
            try (MapOutput output = run.write(Strategies.spec("async:skipMerge=true"), config(200, Bytes.GiB), CODEC, storage,
                    allocator)) {
                IoSnapshot io = storage.counters().snapshot();
                assertEquals(0, io.bytesWritten);
                assertEquals(0, io.filesCreated);
                assertEquals(0, output.files().size());
                assertTrue(verify(run, output, storage, allocator).ok());
                try (var listing = Files.list(dir)) {
                    assertEquals(0, listing.count());
                }
            }
            Leaks.assertNone(allocator, run.heldBytes(), "skip-merge");
        }
    }

    @Test
    void skipMergeWithoutAMemoryLimitWarnsAndMergesAsUpstreamDoes() throws Exception {
        StrategySpec spec = Strategies.spec("async:skipMerge=true");
        WriterConfig unlimited = config(200, WriterConfig.UNLIMITED);
        spec.check("--strategy", unlimited);
        List<String> warnings = spec.warnings(unlimited);
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("skipMerge=true is ignored without a memory limit")
                && warnings.get(0).contains("--memory-limit"), warnings.get(0));
        assertEquals(List.of(), spec.warnings(config(200, Bytes.GiB)));
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(input(3), Partitioning.HASH, 200, allocator)) {
            CountedStorage storage = new CountedStorage();
            try (MapOutput output = run.write(spec, unlimited, CODEC, storage, allocator)) {
                assertEquals(2, output.files().size(), "merged into a data file and its index: " + output.files());
                assertTrue(verify(run, output, storage, allocator).ok());
            }
            Leaks.assertNone(allocator, run.heldBytes(), "skip-merge without a limit");
        }
        assertThrows(InvalidParameterException.class, () -> Strategies.spec("buffered:memoryBound=exact")
                .check("--strategy", config(200, WriterConfig.UNLIMITED)));
    }

    @Test
    void partialsComeFromAnAllocatorThatDoesNotZeroMemory() throws Exception {
        // Arrow's Unsafe allocation manager mallocs (Unsafe.allocateMemory) without zeroing, as upstream's
        // HostMemoryBuffer.allocate(size, false) does; ByteBuffer.allocateDirect, which zeroes, is not on this path.
        // Without a choice made by property, Arrow takes Netty's manager if it is on the class path: it must not be.
        assertEquals(DefaultAllocationManagerOption.AllocationManagerType.Unknown,
                DefaultAllocationManagerOption.getDefaultAllocationManagerType());
        assertThrows(ClassNotFoundException.class,
                () -> Class.forName("org.apache.arrow.memory.netty.NettyAllocationManager"));
        assertEquals("org.apache.arrow.memory.unsafe.UnsafeAllocationManager",
                Class.forName("org.apache.arrow.memory.unsafe.UnsafeAllocationManager").getName());
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(InputSpec.of(DataSize.TINY, 1).withRowsPerBatch(1 << 20),
                     Partitioning.ROUNDROBIN, 200, allocator)) {
            long before = allocator.getPeakMemoryAllocation();
            try (MapOutput output = run.write(Strategies.spec("buffered"), config(200, WriterConfig.UNLIMITED), CODEC, new CountedStorage(), allocator)) {
                assertTrue(allocator.getPeakMemoryAllocation() - before >= 128 * Bytes.MiB - run.heldBytes(),
                        "the 128 MiB partial came from the Arrow allocator: peak " + allocator.getPeakMemoryAllocation());
            }
        }
    }

    @ParameterizedTest(name = "{0}, {1}")
    @CsvSource({"buffered:memoryBound=exact:initialPartial=64k, LZ4_FRAME",
        "async:memoryBound=exact:initialPartial=64k:skipMerge=true, LZ4_BLOCK",
        "async:memoryBound=exact:initialPartial=64k:recordBuffer=direct, NONE",
        "buffered:memoryBound=exact:initialPartial=64k:merger=blocking:compression=pool, LZ4_BLOCK"})
    @Timeout(120)
    void anExactBoundKeepsInputTenTimesTheLimitUnderItAndVerifies(String strategy, ShuffleCodec codec)
            throws Exception {
        long limit = Bytes.MiB;
        InputSpec spec = InputSpec.of(DataSize.TINY, 3).withRowsPerBatch(4096);
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(spec, Partitioning.HASH, 50, allocator)) {
            assertTrue(run.input.bytes >= 10 * limit);
            CountedStorage storage = new CountedStorage();
            WriterConfig config = WriterConfig.builder().partitions(50).threads(3).memoryLimit(limit)
                    .outputDir(dir).build();
            try (ShuffleExecutor executor = Strategies.spec(strategy).createExecutor(config, storage, allocator)) {
                MapTaskResult task = MapTaskRunner.run(executor, run.input, codec);
                long peak = task.peakBufferedBytes;
                try (MapOutput output = task.output) {
                    assertTrue(peak <= limit, "peak " + peak + " over the limit " + limit);
                    assertTrue(peak > limit / 2, "peak " + peak + ": the writer hardly used its memory");
                    assertTrue(storage.counters().snapshot().spilledBytes > 0, "nothing spilled");
                    VerificationResult result = verify(run, output, storage, allocator, codec);
                    assertTrue(result.ok(), result.toString());
                }
            }
            Leaks.assertNone(allocator, run.heldBytes(), strategy);
        }
    }

    private static VerificationResult verify(MapTaskRun run, MapOutput output, CountedStorage storage,
                                             BufferAllocator allocator) throws Exception {
        return verify(run, output, storage, allocator, ShuffleCodec.LZ4_BLOCK);
    }

    static VerificationResult verify(MapTaskRun run, MapOutput output, CountedStorage storage,
                                     BufferAllocator allocator, ShuffleCodec codec) throws Exception {
        try (PartitionReader reader = output.openReader(storage)) {
            return Verifier.verify(reader, run.expected, run.input.schema, codec, allocator);
        }
    }
}
