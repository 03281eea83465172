package dev.sluice.core.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.Leaks;
import dev.sluice.core.MapTaskRun;
import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.io.Bytes;
import dev.sluice.core.io.CountedStorage;
import dev.sluice.core.io.IoSnapshot;
import dev.sluice.core.output.MapOutput;
import dev.sluice.core.output.PartitionReader;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.partition.ShuffleRecord;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.verify.VerificationResult;
import dev.sluice.core.verify.Verifier;
import dev.sluice.core.write.async.AsyncWriterFactory;
import dev.sluice.core.write.buffered.BufferedWriterFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The consolidating writers under their memory limit, and far over it. */
class ConsolidatingMemoryTest {
    @TempDir
    Path dir;

    @Test
    void underTheLimitBufferedWritesEveryByteOnceInLargeCallsWithNoTempFile() throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(InputSpec.of(DataSize.TINY, 1), Partitioning.ROUNDROBIN, 200, allocator)) {
            CountedStorage storage = new CountedStorage();
            WriterConfig config = WriterConfig.builder().partitions(200).threads(2).codec(ShuffleCodec.LZ4_FRAME)
                    .memoryLimit(256 * Bytes.MiB).outputDir(dir).build();
            try (MapOutput output = run.write(new BufferedWriterFactory(), config, storage, allocator)) {
                IoSnapshot io = storage.counters().snapshot();
                assertEquals(1.0, io.amplification(), 0.0);
                assertEquals(2, io.filesCreated, "only the data and index files");
                assertEquals(0, io.spilledBytes);
                assertTrue(io.meanWriteCallBytes() >= Bytes.MiB, "mean write call " + io.meanWriteCallBytes());
                assertEquals(0, storage.filesLeft());
                assertTrue(verify(run, output, storage, config, allocator).ok());
            }
            Leaks.assertNone(allocator, allocatorBytes(run), "buffered under limit");
        }
    }

    @Test
    void underTheLimitAsyncSkipMergeWritesNothing() throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(InputSpec.of(DataSize.TINY, 1), Partitioning.HASH, 200, allocator)) {
            CountedStorage storage = new CountedStorage();
            WriterConfig config = WriterConfig.builder().partitions(200).threads(2).codec(ShuffleCodec.LZ4_BLOCK)
                    .memoryLimit(256 * Bytes.MiB).outputDir(dir).build();
            try (MapOutput output = run.write(new AsyncWriterFactory(), config, storage, allocator)) {
                IoSnapshot io = storage.counters().snapshot();
                assertEquals(0, io.bytesWritten);
                assertEquals(0, io.filesCreated);
                assertEquals(0, output.files().size());
                assertTrue(verify(run, output, storage, config, allocator).ok());
                try (var listing = Files.list(dir)) {
                    assertEquals(0, listing.count());
                }
            }
            Leaks.assertNone(allocator, allocatorBytes(run), "async under limit");
        }
    }

    @ParameterizedTest(name = "{0}, materialize={1}, {2}")
    @CsvSource({"buffered, false, LZ4_FRAME", "async, false, LZ4_FRAME", "async, true, NONE", "buffered, false, LZ4_BLOCK"})
    @Timeout(120)
    void inputTenTimesTheLimitStaysUnderItSpillsAndVerifies(String strategy, boolean materialize, ShuffleCodec codec)
            throws Exception {
        long limit = Bytes.MiB;
        InputSpec spec = InputSpec.of(DataSize.TINY, 3).withRowsPerBatch(4096);
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(spec, Partitioning.HASH, 50, allocator)) {
            assertTrue(run.input.bytes() >= 10 * limit);
            CountedStorage storage = new CountedStorage();
            WriterConfig config = WriterConfig.builder().partitions(50).threads(3).mergerThreads(2).codec(codec)
                    .memoryLimit(limit).materialize(materialize).outputDir(dir).build();
            ShuffleWriterFactory factory = ShuffleWriters.find("strategy", strategy);
            try (ShuffleExecutor executor = factory.createExecutor(config, storage, allocator)) {
                MapOutput output;
                long peak;
                try (ShuffleWriter writer = executor.createMapOutputWriter(run.task())) {
                    for (ShuffleRecord record : run.records.records()) {
                        writer.write(record);
                    }
                    output = writer.commit();
                    peak = writer.peakBufferedBytes();
                }
                try (output) {
                    assertTrue(peak <= limit, "peak " + peak + " over the limit " + limit);
                    assertTrue(peak > limit / 2, "peak " + peak + ": the writer hardly used its memory");
                    assertTrue(storage.counters().snapshot().spilledBytes > 0, "nothing spilled");
                    VerificationResult result = verify(run, output, storage, config, allocator);
                    assertTrue(result.ok(), result.toString());
                }
            }
            Leaks.assertNone(allocator, allocatorBytes(run), strategy + " over limit");
        }
    }

    static VerificationResult verify(MapTaskRun run, MapOutput output, CountedStorage storage, WriterConfig config,
                                     BufferAllocator allocator) throws Exception {
        try (PartitionReader reader = output.openReader(storage)) {
            return Verifier.verify(reader, run.reference, run.input.schema(), config.codec, allocator);
        }
    }

    /** What the test input itself holds in the allocator. */
    static long allocatorBytes(MapTaskRun run) {
        return run.heldBytes();
    }
}
