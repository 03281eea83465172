package dev.sluice.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.measure.ProcSelfIo;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.strategy.StrategySpec;
import dev.sluice.core.verify.OutputDigest;
import dev.sluice.core.verify.VerificationResult;
import dev.sluice.core.verify.Verifier;
import dev.sluice.spi.PartitionReader;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.storage.IoFaults;
import io.netty.util.LeakPresenceDetector;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A wave: N map tasks at once on one executor, each with its own input, each output verified. The writer is the
 * least one ({@link HeapWriterFactory}); how each strategy holds up in a wave is the strategies' own tests' (their
 * output bytes, the contract kit's writers at once on one executor).
 */
class WaveTest {
    private static final int TASKS = 4;
    private static final int PARTITIONS = 23;
    private static final StrategySpec HEAP = StrategySpec.of(new HeapWriterFactory());

    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void aWaveOfNTasksProducesNVerifiedOutputsWithDistinctFingerprints() throws Exception {
        InputSpec spec = InputSpec.of(DataSize.TINY, 0.5).withBatches(3);
        try (BufferAllocator allocator = new RootAllocator();
             WaveInput input = WaveInput.prepare(spec, TASKS, Partitioning.ROUNDROBIN, PARTITIONS, 0, allocator,
                     (task, bytes) -> {})) {
            Set<String> fingerprints = new HashSet<>();
            for (TaskInput task : input.tasks()) {
                assertEquals(3, task.batches, "batches per task");
                assertEquals(spec.seed + task.mapId, task.spec.seed, "task t has seed + t");
                fingerprints.add(task.fingerprint);
            }
            assertEquals(TASKS, fingerprints.size(), "every task has its own input");
            long held = allocator.getAllocatedMemory();
            CountedStorage storage = new CountedStorage();
            ShuffleCodec codec = ShuffleCodec.LZ4_BLOCK;
            WriterConfig config = WriterConfig.builder().partitions(PARTITIONS).threads(3).outputDir(dir).build();
            try (ShuffleExecutor executor = HEAP.createExecutor(config, storage, allocator);
                 Wave wave = new Wave(TASKS)) {
                OutputDigest first = null;
                for (int round = 0; round < 2; round++) {
                    try (WaveResult result = wave.run(executor, input, codec, storage, null)) {
                        assertEquals(TASKS, result.tasks.size());
                        assertTrue(result.wallNanos > 0 && result.slowestTaskNanos() <= result.wallNanos);
                        assertTrue(result.sumTaskNanos() >= result.slowestTaskNanos());
                        // The heap writer writes only at commit: nothing was on storage when the first task began
                        // its commit, everything after.
                        assertEquals(0, result.bytesBeforeFirstCommit, "bytes before the first commit");
                        assertEquals(1.0, result.atCommitShare(), "the share written at commit");
                        for (var task : result.tasks) {
                            try (PartitionReader reader = task.output.openReader(storage)) {
                                VerificationResult verified = Verifier.verify(reader, task.input.expected,
                                        task.input.schema, codec, allocator);
                                assertTrue(verified.ok(), "map " + task.input.mapId + ": " + verified);
                            }
                        }
                        ReduceRead.Result read = ReduceRead.readAll(result.outputs(), storage);
                        assertEquals(result.outputs().stream().mapToLong(o -> o.totalBytes()).sum(), read.bytes);
                        try (PartitionReader reader = result.tasks.get(0).output.openReader(storage)) {
                            OutputDigest digest = OutputDigest.of(reader);
                            if (first == null) {
                                first = digest;
                            } else {
                                assertEquals(-1, digest.firstDifference(first), "the same input, the same bytes");
                            }
                        }
                        result.delete(storage);
                    }
                }
            }
            assertEquals(List.of(), files(), "outputs removed");
            assertEquals(0, storage.filesLeft());
            assertNothingHeld(allocator, held, "wave");
        }
    }

    @Test
    @Timeout(120)
    void aWaveThroughAnUncountedStorageStillTakesTheBytesItWroteForThePrefault() throws Exception {
        assumeTrue(ProcSelfIo.read().isPresent(), "needs /proc/self/io");
        InputSpec spec = InputSpec.of(DataSize.TINY, 0.5).withBatches(3);
        try (BufferAllocator allocator = new RootAllocator();
             WaveInput input = WaveInput.prepare(spec, TASKS, Partitioning.ROUNDROBIN, PARTITIONS, 0, allocator,
                     (task, bytes) -> {})) {
            CountedStorage storage = CountedStorage.uncounted();
            WriterConfig config = WriterConfig.builder().partitions(PARTITIONS).threads(3).outputDir(dir).build();
            try (ShuffleExecutor executor = HEAP.createExecutor(config, storage, allocator);
                 Wave wave = new Wave(TASKS);
                 WaveResult result = wave.run(executor, input, ShuffleCodec.LZ4_BLOCK, storage, null)) {
                long committed = result.outputs().stream().mapToLong(o -> o.totalBytes()).sum();
                assertEquals(0, result.io.bytesWritten, "the uncounted storage counts nothing");
                assertTrue(result.memoryTaken() >= committed, result.memoryTaken() + " bytes taken, " + committed
                        + " committed: the kernel's count of the bytes written stands in for the storage's");
                result.delete(storage);
            }
            assertEquals(List.of(), files(), "outputs removed");
        }
    }

    @Test
    @Timeout(60)
    void aFailingTaskFailsTheWaveAndTheOthersOutputsAreRemoved() throws Exception {
        InputSpec spec = InputSpec.of(DataSize.TINY, 0.25);
        try (BufferAllocator allocator = new RootAllocator();
             WaveInput input = WaveInput.prepare(spec, TASKS, Partitioning.HASH, PARTITIONS, 0, allocator,
                     (task, bytes) -> {})) {
            long held = allocator.getAllocatedMemory();
            // The index or data file of one task fails to be renamed; the others commit, and must be cleaned up.
            CountedStorage storage = new CountedStorage(IoFaults.failingRename(3));
            ShuffleCodec codec = ShuffleCodec.LZ4_FRAME;
            WriterConfig config = WriterConfig.builder().partitions(PARTITIONS).threads(2).outputDir(dir).build();
            try (ShuffleExecutor executor = HEAP.createExecutor(config, storage, allocator);
                 Wave wave = new Wave(TASKS)) {
                Exception e = assertThrows(Exception.class, () -> wave.run(executor, input, codec, storage, null));
                assertTrue(String.valueOf(e).contains("injected fault")
                        || String.valueOf(e.getCause()).contains("injected fault"), String.valueOf(e));
            }
            assertEquals(List.of(), files());
            assertNothingHeld(allocator, held, "failed wave");
        }
    }

    /** No Arrow memory beyond the input's, no Netty buffer, and none of the wave's task threads left. */
    private static void assertNothingHeld(BufferAllocator allocator, long held, String what) {
        assertEquals(held, allocator.getAllocatedMemory(), what + ": Arrow memory not released");
        LeakPresenceDetector.check();
        assertEquals(List.of(), Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("sluice-task")).map(Thread::getName)
                .collect(Collectors.toList()), what + ": task threads left running");
    }

    private List<String> files() throws Exception {
        try (Stream<Path> list = Files.list(dir)) {
            return list.map(p -> p.getFileName().toString()).collect(Collectors.toList());
        }
    }
}
