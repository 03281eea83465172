package dev.sluice.strategy.ideal;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.memory.ArrowHostAllocator;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.run.Wave;
import dev.sluice.core.run.WaveInput;
import dev.sluice.core.run.WaveResult;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.verify.VerificationResult;
import dev.sluice.core.verify.Verifier;
import dev.sluice.spi.PartitionReader;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.testkit.Leaks;
import java.nio.file.Path;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class IdealSlabsTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void slabsAreReusedFromWaveToWaveAndEveryOutputVerifies() throws Exception {
        InputSpec spec = InputSpec.of(DataSize.TINY, 1).withBatches(3);
        try (BufferAllocator allocator = new RootAllocator();
             WaveInput input = WaveInput.prepare(spec, 2, Partitioning.HASH, 31, 0, allocator, (task, bytes) -> {})) {
            long held = allocator.getAllocatedMemory();
            CountedStorage storage = new CountedStorage();
            WriterConfig config = WriterConfig.builder().partitions(31).threads(2).outputDir(dir).build();
            // Each compression thread fills a slab of its own per task, so one wave of these small tasks takes between
            // one slab per task and one per task and thread. Without reuse, cores + 1 waves would take more than that.
            int cores = Runtime.getRuntime().availableProcessors();
            long[] fresh = new long[cores + 1];
            try (IdealExecutor executor = new IdealExecutor(config, storage, ArrowHostAllocator.of(allocator));
                 Wave wave = new Wave(input.size())) {
                for (int w = 0; w < fresh.length; w++) {
                    try (WaveResult result = wave.run(executor, input, ShuffleCodec.LZ4_BLOCK, storage, null)) {
                        for (var task : result.tasks) {
                            try (PartitionReader reader = task.output.openReader(storage)) {
                                VerificationResult rows = Verifier.verify(reader, task.input.expected,
                                        task.input.schema, ShuffleCodec.LZ4_BLOCK, allocator);
                                assertTrue(rows.ok(), "wave " + w + ": " + rows);
                            }
                        }
                        result.delete(storage);
                    }
                    fresh[w] = executor.freshBytes();
                }
            }
            assertTrue(fresh[0] > 0, "the first wave takes its slabs");
            assertTrue(fresh[cores] <= 2L * cores * IdealWriter.SLAB, fresh.length + " waves took "
                    + fresh[cores] + " bytes of fresh slabs, more than one wave can use");
            Leaks.assertNone(allocator, held, "ideal's slabs");
        }
    }
}
