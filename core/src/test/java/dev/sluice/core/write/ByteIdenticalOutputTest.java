package dev.sluice.core.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.MapTaskRun;
import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.input.KeyDistribution;
import dev.sluice.core.io.Bytes;
import dev.sluice.core.io.CountedStorage;
import dev.sluice.core.output.MapOutput;
import dev.sluice.core.output.MapOutputFiles;
import dev.sluice.core.output.PartitionReader;
import dev.sluice.core.output.SparkMapOutput;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.verify.Verifier;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Same input and codec: every strategy and option writes the same data file and index, whether the map task has one
 * batch (its partial is the data file) or many (the partials are merged), and the segment catalog serves the same
 * partition bytes.
 */
class ByteIdenticalOutputTest {
    private static final int PARTITIONS = 31;

    @TempDir
    Path dir;

    static List<Arguments> cases() {
        List<Arguments> all = new ArrayList<>();
        for (ShuffleCodec codec : ShuffleCodec.values()) {
            all.add(Arguments.of(codec, 2048));
            all.add(Arguments.of(codec, 1 << 20));
        }
        return all;
    }

    @ParameterizedTest(name = "{0}, {1} rows per batch")
    @MethodSource("cases")
    void everyStrategyAndOptionWritesTheSameBytes(ShuffleCodec codec, int rowsPerBatch) throws Exception {
        InputSpec spec = InputSpec.of(DataSize.TINY, 0.25).withRowsPerBatch(rowsPerBatch).withKeys(KeyDistribution.ZIPF);
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(spec, Partitioning.HASH, PARTITIONS, allocator)) {
            WriterConfig.Builder config = WriterConfig.builder().partitions(PARTITIONS).threads(3).codec(codec);
            Path reference = dir.resolve("per-batch");
            byte[] perBatch = writeFiles(run, "per-batch", config.outputDir(reference).build(), allocator);
            List<String> others = List.of("buffered", "buffered:initialPartial=64k", "buffered:merge=gather",
                    "buffered:initialPartial=64k:merge=gather:shrink=true", "buffered:merger=blocking:compression=pool",
                    "buffered:recordBuffer=direct", "async", "async:initialPartial=64k:merge=gather",
                    "buffered:partial=chunked:chunk=64k", "buffered:partial=chunked:chunk=64k:merge=gather:pool=true",
                    "buffered:initialPartial=64k:pool=true:recordBuffer=direct:checksum=true",
                    "async:partial=chunked:chunk=64k:recordBuffer=direct:pool=true", "buffered:partial=records:recordBuffer=direct",
                    "buffered:partial=records:recordBuffer=direct:pool=true:merge=gather",
                    "buffered:partial=records:recordBuffer=direct:checksum=true", "consolidated-best", "ideal");
            int i = 0;
            for (String other : others) {
                Path out = dir.resolve("other-" + i++);
                assertArrayEquals(perBatch, writeFiles(run, other, config.outputDir(out).build(), allocator),
                        other + "'s data file differs from per-batch's");
                assertArrayEquals(Files.readAllBytes(reference.resolve("shuffle_0_7_0.index")),
                        Files.readAllBytes(out.resolve("shuffle_0_7_0.index")), other + "'s index");
            }

            CountedStorage storage = new CountedStorage();
            // Each batch's partial starts at 32 MiB: a limit twice the batches' total keeps them all under the 0.5
            // threshold, in memory.
            WriterConfig catalogConfig = config.outputDir(dir.resolve("catalog"))
                    .memoryLimit(2 * 32 * Bytes.MiB * run.input.batches).build();
            try (MapOutput catalog = run.write(Strategies.spec("async:skipMerge=true"), catalogConfig, storage, allocator);
                 PartitionReader fromCatalog = catalog.openReader(storage);
                 PartitionReader fromFiles = SparkMapOutput.open(new CountedStorage(),
                         new MapOutputFiles(reference, MapTaskRun.SHUFFLE_ID, MapTaskRun.MAP_ID))) {
                assertEquals(0, storage.counters().snapshot().bytesWritten, "skip-merge wrote bytes");
                assertTrue(Verifier.verify(fromCatalog, run.reference, run.input.schema, codec, allocator).ok());
                for (int p = 0; p < PARTITIONS; p++) {
                    assertArrayEquals(bytes(fromFiles.open(p)), bytes(fromCatalog.open(p)), "partition " + p);
                }
            }
        }
    }

    private static byte[] writeFiles(MapTaskRun run, String strategy, WriterConfig config, BufferAllocator allocator)
            throws Exception {
        CountedStorage storage = new CountedStorage();
        try (MapOutput output = run.write(Strategies.spec(strategy), config, storage, allocator);
             PartitionReader reader = output.openReader(storage)) {
            assertTrue(output.files().size() >= 2, strategy + ": " + output.files());
            assertTrue(Verifier.verify(reader, run.reference, run.input.schema, config.codec, allocator).ok(), strategy);
            return Files.readAllBytes(output.files().get(0));
        }
    }

    static byte[] bytes(ReadableByteChannel channel) throws Exception {
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
