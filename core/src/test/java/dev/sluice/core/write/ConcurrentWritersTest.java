package dev.sluice.core.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.Leaks;
import dev.sluice.core.input.BatchGenerator;
import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.input.MapTaskInput;
import dev.sluice.core.io.Bytes;
import dev.sluice.core.io.CountedStorage;
import dev.sluice.core.output.MapOutput;
import dev.sluice.core.output.PartitionReader;
import dev.sluice.core.partition.PartitionedInput;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.partition.ShuffleRecord;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.verify.Reference;
import dev.sluice.core.verify.VerificationResult;
import dev.sluice.core.verify.Verifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** 16 map tasks at once on one executor's pools, as the seed report ran 16 tasks per executor. */
class ConcurrentWritersTest {
    private static final int TASKS = 16;
    private static final int PARTITIONS = 20;

    @TempDir
    Path dir;

    static List<Arguments> cases() {
        List<Arguments> all = new ArrayList<>();
        Strategies.all().forEach(f -> {
            all.add(Arguments.of(f.name(), 256 * Bytes.MiB));
            all.add(Arguments.of(f.name(), 128 * Bytes.KiB));
        });
        return all;
    }

    @ParameterizedTest(name = "{0}, memory limit {1}")
    @MethodSource("cases")
    @Timeout(180)
    void sixteenWritersOnSharedPoolsAllVerify(String strategy, long memoryLimit) throws Exception {
        InputSpec spec = InputSpec.of(DataSize.TINY, 0.25).withRowsPerBatch(2048);
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskInput input = BatchGenerator.generate(spec, allocator);
             PartitionedInput records = PartitionedInput.partition(input,
                     Partitioning.HASH.create(PARTITIONS, 0), allocator)) {
            Reference reference = Reference.compute(input, Partitioning.HASH.create(PARTITIONS, 0));
            long held = allocator.getAllocatedMemory();
            CountedStorage storage = new CountedStorage();
            WriterConfig config = WriterConfig.builder().partitions(PARTITIONS).threads(4).mergerThreads(2)
                    .memoryLimit(memoryLimit).maxBytesInFlight(256 * Bytes.KiB).codec(ShuffleCodec.LZ4_FRAME)
                    .outputDir(dir).build();
            ExecutorService tasks = Executors.newFixedThreadPool(TASKS);
            try (ShuffleExecutor executor = ShuffleWriters.find("strategy", strategy).createExecutor(config, storage, allocator)) {
                List<Future<VerificationResult>> results = new ArrayList<>();
                for (int t = 0; t < TASKS; t++) {
                    long mapId = t;
                    results.add(tasks.submit(() -> {
                        MapOutput output;
                        try (ShuffleWriter writer = executor.createMapOutputWriter(new MapTask(0, mapId, input.schema()))) {
                            for (ShuffleRecord record : records.records()) {
                                writer.write(record);
                            }
                            output = writer.commit();
                            assertTrue(writer.peakBufferedBytes() <= memoryLimit || strategy.equals("per-batch"));
                        }
                        try (output; PartitionReader reader = output.openReader(storage)) {
                            return Verifier.verify(reader, reference, input.schema(), config.codec, allocator);
                        }
                    }));
                }
                for (Future<VerificationResult> result : results) {
                    VerificationResult r = result.get(150, TimeUnit.SECONDS);
                    assertTrue(r.ok(), r.toString());
                }
            } finally {
                tasks.shutdownNow();
                assertTrue(tasks.awaitTermination(30, TimeUnit.SECONDS));
            }
            assertEquals(0, storage.filesLeft());
            Leaks.assertNone(allocator, held, strategy + " x" + TASKS);
        }
    }
}
