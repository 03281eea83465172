package dev.sluice.strategy.ideal;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import dev.sluice.spi.memory.HostBuffer;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.strategy.support.HostBufferPool;
import dev.sluice.testkit.Leaks;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
    void aWaveAfterTheFirstTakesNoFreshSlabAndEveryOutputVerifies() throws Exception {
        InputSpec spec = InputSpec.of(DataSize.TINY, 0.25).withBatches(3);
        try (BufferAllocator allocator = new RootAllocator();
             WaveInput input = WaveInput.prepare(spec, 2, Partitioning.HASH, 31, 0, allocator, (task, bytes) -> {})) {
            long held = allocator.getAllocatedMemory();
            CountedStorage storage = new CountedStorage();
            WriterConfig config = WriterConfig.builder().partitions(31).threads(2).outputDir(dir).build();
            // Each compression thread fills a slab of its own per task; these tasks are small enough that a thread's
            // share of one fits in one slab, so a wave takes at most one slab per task and thread, and the reserve
            // made after each writer (Slabs) holds that many more than the first wave had out: nothing fresh after it.
            long[] fresh = new long[4];
            long[] faultedIn = new long[4];
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
                    faultedIn[w] = executor.faultedInBytes();
                }
            }
            assertTrue(fresh[0] > 0, "the first wave takes its slabs");
            // Every fresh slab is touched whole before a record goes into it (these records are smaller than a slab,
            // so every fresh buffer is a slab): no later wave fills pages of it that were never touched.
            assertEquals(fresh[0], faultedIn[0], "fresh slabs faulted in whole");
            for (int w = 1; w < fresh.length; w++) {
                assertEquals(fresh[0], fresh[w], "wave " + w + " took fresh slabs");
            }
            Leaks.assertNone(allocator, held, "ideal's slabs");
        }
    }

    @Test
    @Timeout(60)
    void theReserveLetsEveryWriterTakeAsManySlabsAsAnyTookAtOnce() {
        try (BufferAllocator allocator = new RootAllocator()) {
            int threads = 2;
            HostBufferPool pool = new HostBufferPool(ArrowHostAllocator.of(allocator), WriterConfig.UNLIMITED, () -> 0);
            Slabs slabs = new Slabs(pool, threads);
            // The first wave: two writers open, but the first gives its 5 slabs back before the second takes its 5.
            slabs.writerOpened();
            slabs.writerOpened();
            giveBack(slabs, take(slabs, 5));
            giveBack(slabs, take(slabs, 5));
            long afterFirst = pool.freshBytes();
            // The next: both hold theirs at once, and each has its records fall to the threads so that it takes the
            // most slabs the same bytes can (5 taken: at most 4 filled, and a partly filled one per thread).
            slabs.writerOpened();
            slabs.writerOpened();
            List<HostBuffer> a = take(slabs, 4 + threads);
            List<HostBuffer> b = take(slabs, 4 + threads);
            assertEquals(afterFirst, pool.freshBytes(), "a wave after the first took a fresh slab");
            giveBack(slabs, a);
            giveBack(slabs, b);
            assertEquals(afterFirst, pool.freshBytes(), "the reserve grew after a wave it already covered");
            pool.close();
            assertEquals(0, allocator.getAllocatedMemory());
        }
    }

    private static List<HostBuffer> take(Slabs slabs, int n) {
        List<HostBuffer> taken = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            taken.add(slabs.take());
        }
        return taken;
    }

    private static void giveBack(Slabs slabs, List<HostBuffer> taken) {
        taken.forEach(slabs::give);
        slabs.writerDone(taken.size());
    }
}
