package dev.sluice.strategy.perbatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.spi.MapOutput;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.storage.IoSnapshot;
import dev.sluice.strategy.Strategies;
import dev.sluice.testkit.MapTaskRun;
import java.nio.file.Path;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What per-batch does to storage at 200 partitions, counted call by call. */
class PerBatchCountersTest {
    private static final int BUFFER = 32 * 1024;

    @TempDir
    Path dir;

    @Test
    void writesEveryCommittedByteTwiceThroughOneTempFilePerPartition() throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(InputSpec.of(DataSize.TINY, 1), Partitioning.HASH, 200, allocator)) {
            CountedStorage storage = new CountedStorage();
            ShuffleCodec codec = ShuffleCodec.LZ4_FRAME;
            WriterConfig config = WriterConfig.builder().partitions(200).threads(4)
                    .outputDir(dir).build();
            IoSnapshot io;
            long dataBytes;
            try (MapOutput output = run.write(Strategies.spec("per-batch"), config, codec, storage, allocator)) {
                io = storage.counters().snapshot();
                dataBytes = output.totalBytes();
            }
            int nonEmpty = run.expected.nonEmptyPartitions();
            assertEquals(200, nonEmpty);
            double amplification = io.amplification();
            assertTrue(amplification >= 1.9 && amplification <= 2.1, "amplification " + amplification);
            assertEquals(dataBytes + 201 * Long.BYTES + 200 * Long.BYTES, io.committedBytes, "data, index, checksums");
            assertEquals(nonEmpty + 3, io.filesCreated,
                    "one temp file per non-empty partition, plus data, index and checksum files");
            assertEquals(nonEmpty, io.filesDeleted);
            assertEquals(0, storage.filesLeft());
            assertEquals(3, io.renames);
            assertEquals(0, io.fsyncs);
            assertEquals(nonEmpty, io.transferCalls, "the final copy: one transferTo per partition file");
            // Records of ~160 rows have no piece as large as the buffer, which alone would go past it.
            assertTrue(io.largestMemoryWrite <= BUFFER, "a write call of " + io.largestMemoryWrite + " bytes");
            assertEquals(dataBytes, io.bytesRead, "each temp file is read back once by the copy");
        }
    }

    @Test
    void streamCopyAndFsyncKeepEveryWriteCallWithinTheBuffer() throws Exception {
        int buffer = 8 * 1024;
        // LZ4 blocks are at most 32 KiB + 21 bytes before compression, so with lz4-block no single write reaches 64 KiB.
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(InputSpec.of(DataSize.TINY, 0.5), Partitioning.ROUNDROBIN, 20, allocator)) {
            CountedStorage storage = new CountedStorage();
            ShuffleCodec codec = ShuffleCodec.LZ4_BLOCK;
            WriterConfig config = WriterConfig.builder().partitions(20).threads(2).fsync(true)
                    .outputDir(dir).build();
            try (MapOutput output = run.write(Strategies.spec("per-batch:fileBuffer=8k:mergeCopy=stream"), config,
                    codec, storage, allocator)) {
                IoSnapshot io = storage.counters().snapshot();
                assertEquals(0, io.transferCalls);
                assertTrue(io.largestMemoryWrite <= 33 * 1024, "a write call of " + io.largestMemoryWrite + " bytes");
                assertEquals(3, io.fsyncs, "data, index and checksum files forced before their renames");
                assertEquals(output.totalBytes(), io.bytesRead);
                double amplification = io.amplification();
                assertTrue(amplification >= 1.9 && amplification <= 2.1, "amplification " + amplification);
            }
            assertEquals(0, storage.filesLeft());
        }
    }
}
