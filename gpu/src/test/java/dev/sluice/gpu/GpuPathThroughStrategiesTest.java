package dev.sluice.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.input.MapTaskInput;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.strategy.Presets;
import dev.sluice.core.strategy.StrategySpec;
import dev.sluice.core.verify.VerificationResult;
import dev.sluice.spi.MapTask;
import dev.sluice.spi.PartitionReader;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.storage.IoFaults;
import dev.sluice.testkit.Leaks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The GPU path's records (kudo or JCudfSerialization tables of slices of a partitioned batch's host columns) go
 * through every strategy and the same map output as the CPU path's, and every partition reads back with the rows it
 * must hold. The device's
 * partition and copy are made on the host here ({@link HostPartitions#onHost}); the device tests run the real ones.
 */
class GpuPathThroughStrategiesTest {
    static Stream<String> strategies() {
        return Stream.of("per-batch", "buffered", "async", Presets.CONSOLIDATED_BEST, "ideal",
                "buffered:initialPartial=64k:merger=cooperative", "async:initialPartial=64k:skipMerge=true");
    }

    @ParameterizedTest
    @MethodSource("strategies")
    void everyStrategyWritesTheGpuRecordsAndEveryPartitionHoldsItsRows(String strategy, @TempDir Path dir)
            throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskInput input = CudfColumnsTest.input(allocator, 3)) {
            long held = allocator.getAllocatedMemory();
            for (GpuSerializer serializer : GpuSerializer.values()) {
                for (GpuPartitioning partitioning : GpuPartitioning.values()) {
                    for (int partitions : new int[] {1, 7, 200}) {
                        for (ShuffleCodec codec : GpuFormat.CODECS) {
                            String what = strategy + ", " + serializer.label() + ", " + partitioning.label() + ", "
                                    + partitions + " partitions, " + codec.label();
                            HostMemory memory = HostMemory.pageable();
                            CountedStorage storage = new CountedStorage();
                            VerificationResult result = writeAndVerify(StrategySpec.parse("strategy", strategy),
                                    serializer.format(codec, input.schema()), input, partitioning, partitions, memory,
                                    storage, allocator, dir.resolve(serializer.label() + partitioning.label()
                                            + partitions + codec.label()));
                            assertTrue(result.ok(), what + ": " + result);
                            assertEquals(input.rows(), result.rowsRead(), what);
                            assertEquals(0, memory.openBuffers(), what + ": host buffers left open");
                            assertEquals(0, storage.filesLeft(), what + ": files left");
                        }
                    }
                }
            }
            Leaks.assertNone(allocator, held, strategy);
        }
    }

    @Test
    void aFailedCommitLeavesNoFileAndNoHostBuffer(@TempDir Path dir) throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskInput input = CudfColumnsTest.input(allocator, 2)) {
            long held = allocator.getAllocatedMemory();
            for (GpuSerializer serializer : GpuSerializer.values()) {
                for (String strategy : List.of("per-batch", "buffered", "async")) {
                    String what = strategy + ", " + serializer.label();
                    HostMemory memory = HostMemory.pageable();
                    CountedStorage storage = new CountedStorage(IoFaults.failingRename(1));
                    Path out = dir.resolve(serializer.label() + strategy);
                    Exception e = assertThrows(Exception.class, () -> writeAndVerify(StrategySpec.parse("strategy",
                            strategy), serializer.format(ShuffleCodec.LZ4_BLOCK, input.schema()), input,
                            GpuPartitioning.HASH, 200, memory, storage, allocator, out));
                    assertTrue(String.valueOf(e).contains("injected fault")
                            || String.valueOf(e.getCause()).contains("injected fault"), what + ": " + e);
                    assertEquals(0, storage.filesLeft(), what + ": files left");
                    try (Stream<Path> left = Files.list(out)) {
                        assertEquals(List.of(), left.toList(), what);
                    }
                    assertEquals(0, memory.openBuffers(), what + ": host buffers left open");
                }
            }
            Leaks.assertNone(allocator, held, "failed GPU map tasks");
        }
    }

    /** One emulated GPU map task in {@code format} through {@code spec}, verified and deleted; returns the check. */
    static VerificationResult writeAndVerify(StrategySpec spec, GpuFormat format, MapTaskInput input,
                                             GpuPartitioning partitioning, int partitions, HostMemory memory,
                                             CountedStorage storage, BufferAllocator allocator, Path dir)
            throws Exception {
        ShuffleCodec codec = format.codec();
        Files.createDirectories(dir);
        long mapId = 3;
        int start = partitioning.startPartition(mapId, partitions);
        RowMultisets expected = RowMultisets.expected(input.batches(), partitioning, partitions, start);
        WriterConfig config = WriterConfig.builder().partitions(partitions).threads(2).outputDir(dir)
                .build();
        if (spec.problem(config) != null) {
            // Skip-merge needs a memory limit (as upstream needs its off-heap limit): one far above these inputs.
            config = WriterConfig.builder().partitions(partitions).threads(2).outputDir(dir)
                    .memoryLimit(256L << 20).build();
        }
        try (ShuffleExecutor executor = spec.createExecutor(config, storage, allocator)) {
            GpuMapTask.Result result = GpuMapTask.run(executor, new MapTask(0, mapId, format),
                    input.batches().size(), b -> HostPartitions.onHost(input.batches().get(b), partitioning,
                            partitions, start, memory, allocator));
            assertEquals(input.rows(), result.rows);
            try (var output = result.output; PartitionReader reader = output.openReader(storage)) {
                VerificationResult verified = GpuVerifier.verify(reader, expected, format, input.schema(), allocator);
                output.delete(storage);
                return verified;
            }
        }
    }
}
