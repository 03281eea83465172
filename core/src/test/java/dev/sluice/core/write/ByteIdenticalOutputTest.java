package dev.sluice.core.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.MapTaskRun;
import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.input.KeyDistribution;
import dev.sluice.core.io.CountedStorage;
import dev.sluice.core.output.MapOutput;
import dev.sluice.core.output.MapOutputFiles;
import dev.sluice.core.output.SparkMapOutput;
import dev.sluice.core.output.PartitionReader;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.verify.Verifier;
import dev.sluice.core.write.async.AsyncWriterFactory;
import dev.sluice.core.write.buffered.BufferedWriterFactory;
import dev.sluice.core.write.perbatch.PerBatchWriterFactory;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Same input and codec: every strategy's partitions are the same bytes, and the files are the same files. */
class ByteIdenticalOutputTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(ShuffleCodec.class)
    void everyStrategyWritesTheSameBytes(ShuffleCodec codec) throws Exception {
        InputSpec spec = InputSpec.of(DataSize.TINY, 0.25).withRowsPerBatch(2048).withKeys(KeyDistribution.ZIPF);
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(spec, Partitioning.HASH, 31, allocator)) {
            WriterConfig.Builder config = WriterConfig.builder().partitions(31).threads(3).mergerThreads(2).codec(codec);
            byte[] perBatchData = writeFiles(run, new PerBatchWriterFactory(), config.outputDir(dir.resolve("per-batch")).build(), allocator);
            byte[] bufferedData = writeFiles(run, new BufferedWriterFactory(), config.outputDir(dir.resolve("buffered")).build(), allocator);
            byte[] materialized = writeFiles(run, new AsyncWriterFactory(), config.outputDir(dir.resolve("async")).materialize(true).build(), allocator);
            assertArrayEquals(perBatchData, bufferedData, "buffered's data file differs from per-batch's");
            assertArrayEquals(perBatchData, materialized, "async --materialize's data file differs from per-batch's");
            assertArrayEquals(Files.readAllBytes(dir.resolve("per-batch/shuffle_0_7_0.index")),
                    Files.readAllBytes(dir.resolve("async/shuffle_0_7_0.index")));

            CountedStorage storage = new CountedStorage();
            WriterConfig catalogConfig = config.outputDir(dir.resolve("catalog")).materialize(false).build();
            try (MapOutput catalog = run.write(new AsyncWriterFactory(), catalogConfig, storage, allocator);
                 PartitionReader fromCatalog = catalog.openReader(storage);
                 PartitionReader fromFiles = SparkMapOutput.open(new CountedStorage(),
                         new MapOutputFiles(dir.resolve("per-batch"), MapTaskRun.SHUFFLE_ID, MapTaskRun.MAP_ID))) {
                assertEquals(0, storage.counters().snapshot().bytesWritten, "skip-merge wrote bytes");
                assertTrue(Verifier.verify(fromCatalog, run.reference, run.input.schema(), codec, allocator).ok());
                for (int p = 0; p < 31; p++) {
                    assertArrayEquals(bytes(fromFiles.open(p)), bytes(fromCatalog.open(p)), "partition " + p);
                }
            }
        }
    }

    private static byte[] writeFiles(MapTaskRun run, ShuffleWriterFactory factory, WriterConfig config,
                                     BufferAllocator allocator) throws Exception {
        CountedStorage storage = new CountedStorage();
        try (MapOutput output = run.write(factory, config, storage, allocator)) {
            assertEquals(2, output.files().size());
            return Files.readAllBytes(output.files().get(0));
        }
    }

    private static byte[] bytes(ReadableByteChannel channel) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer buffer = ByteBuffer.allocate(8192);
        while (channel.read(buffer) >= 0) {
            buffer.flip();
            out.write(buffer.array(), 0, buffer.limit());
            buffer.clear();
        }
        return out.toByteArray();
    }
}
