package dev.sluice.core.write.perbatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.ArrowReaders;
import dev.sluice.core.MapTaskRun;
import dev.sluice.core.Threads;
import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.input.KeyDistribution;
import dev.sluice.core.io.CountedStorage;
import dev.sluice.core.output.MapOutput;
import dev.sluice.core.output.PartitionReader;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.verify.VerificationResult;
import dev.sluice.core.verify.Verifier;
import dev.sluice.core.write.Strategies;
import dev.sluice.core.write.WriterConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every codec x partition count x key distribution x partitioning: per-batch output verifies and Arrow reads it. */
class PerBatchMatrixTest {
    @TempDir
    Path dir;

    static Stream<Arguments> matrix() {
        List<Arguments> all = new ArrayList<>();
        for (ShuffleCodec codec : ShuffleCodec.values()) {
            for (int partitions : new int[] {1, 7, 200}) {
                for (KeyDistribution keys : KeyDistribution.values()) {
                    for (Partitioning partitioning : Partitioning.values()) {
                        all.add(Arguments.of(codec, partitions, keys, partitioning));
                    }
                }
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0}, {1} partitions, {2} keys, {3}")
    @MethodSource("matrix")
    void writesVerifiesAndArrowReadsEveryPartition(ShuffleCodec codec, int partitions, KeyDistribution keys,
                                                   Partitioning partitioning) throws Exception {
        InputSpec spec = InputSpec.of(DataSize.TINY, 0.25).withRowsPerBatch(4096).withKeys(keys);
        try (BufferAllocator allocator = new RootAllocator()) {
            try (MapTaskRun run = new MapTaskRun(spec, partitioning, partitions, allocator)) {
                CountedStorage storage = new CountedStorage();
                WriterConfig config = WriterConfig.builder().partitions(partitions).threads(3).codec(codec)
                        .outputDir(dir).build();
                try (MapOutput output = run.write(Strategies.spec("per-batch"), config, storage, allocator);
                     PartitionReader reader = output.openReader(storage)) {
                    VerificationResult result = Verifier.verify(reader, run.reference, run.input.schema, codec, allocator);
                    assertTrue(result.ok(), result.toString());
                    assertEquals(run.input.rows, result.rowsRead());
                    long arrowRows = 0;
                    for (int p = 0; p < partitions; p++) {
                        long rows = ArrowReaders.rows(reader, p, codec, run.input.schema, allocator);
                        assertEquals(run.reference.rows(p), rows, "partition " + p);
                        arrowRows += rows;
                    }
                    assertEquals(run.input.rows, arrowRows);
                }
                try (Stream<Path> files = Files.list(dir)) {
                    assertEquals(List.of("shuffle_0_7_0.checksum.ADLER32", "shuffle_0_7_0.data", "shuffle_0_7_0.index"),
                            files.map(f -> f.getFileName().toString()).sorted().collect(java.util.stream.Collectors.toList()));
                }
                assertEquals(0, storage.filesLeft());
            }
            assertEquals(0, allocator.getAllocatedMemory());
        }
        assertEquals(List.of(), Threads.sluiceThreads());
    }
}
