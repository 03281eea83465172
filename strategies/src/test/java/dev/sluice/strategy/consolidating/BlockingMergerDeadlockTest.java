package dev.sluice.strategy.consolidating;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.strategy.StrategySpec;
import dev.sluice.core.verify.Verifier;
import dev.sluice.spi.Bytes;
import dev.sluice.spi.MapOutput;
import dev.sluice.spi.MapTask;
import dev.sluice.spi.PartitionReader;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.ShuffleRecord;
import dev.sluice.spi.ShuffleWriter;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.testkit.Causes;
import dev.sluice.testkit.Leaks;
import dev.sluice.testkit.MapTaskRun;
import dev.sluice.testkit.Threads;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * spark-rapids #15208 reproduced: a blocking merger (the PRs' {@code mergerTask}, Sluice's default) holds its merger
 * slot while it waits for its producer, so another task's merger queued on that slot never starts; when that other
 * task's compressed records hold the memory the producer waits for, nothing moves. Here map task A's merger holds the
 * only merger slot, map task B's records fill an exact memory limit while B's merger waits behind A's, and A's task
 * thread then waits for memory. Upstream hangs; Sluice's merger gives up after its bounded wait
 * ({@code sluice.blockingMerger.timeoutSeconds}, 5 s in these tests) and fails A naming #15208 and the option that
 * avoids it, which frees the slot: B finishes, and A leaves nothing behind.
 */
class BlockingMergerDeadlockTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void aDeadlockOfBlockingMergersFailsOneTaskNamingTheCauseWithinItsBoundAndLeavesNothing() throws Exception {
        long timeoutSeconds = Long.getLong(BlockingMerger.TIMEOUT_PROPERTY, 600);
        assertTrue(timeoutSeconds <= 30, "the test runs with a short merger timeout, not " + timeoutSeconds + " s");
        InputSpec spec = InputSpec.of(DataSize.TINY, 0.5).withRowsPerBatch(2048);
        long limit = 512 * Bytes.KiB;
        ShuffleCodec codec = ShuffleCodec.LZ4_BLOCK;
        WriterConfig config = WriterConfig.builder().partitions(7).threads(2)
                .memoryLimit(limit).outputDir(dir).build();
        StrategySpec strategy = StrategySpec.parse("strategy",
                "buffered:merger=blocking:mergerThreads=1:memoryBound=exact:initialPartial=64k");
        CountedStorage storage = new CountedStorage();
        ExecutorService tasks = Executors.newFixedThreadPool(2);
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun a = new MapTaskRun(spec, Partitioning.HASH, 7, allocator);
             MapTaskRun b = new MapTaskRun(spec.withSeed(spec.seed + 1), Partitioning.HASH, 7, allocator)) {
            long held = allocator.getAllocatedMemory();
            List<ShuffleRecord> recordsA = a.records(ShuffleCodec.LZ4_BLOCK);
            List<ShuffleRecord> recordsB = b.records(ShuffleCodec.LZ4_BLOCK);
            try (ShuffleExecutor executor = strategy.createExecutor(config, storage, allocator)) {
                ExecutorMemory host = ((ConsolidatingExecutor) executor).host();
                ShuffleWriter writerA = executor.createMapOutputWriter(a.task(ShuffleCodec.LZ4_BLOCK));
                MapTask taskB = b.task(ShuffleCodec.LZ4_BLOCK);
                ShuffleWriter writerB = executor.createMapOutputWriter(
                        new MapTask(taskB.shuffleId, taskB.mapId + 1, taskB.format));
                // A's first batch starts: its merger takes the only merger slot and waits for A's records.
                writerA.write(recordsA.get(0));
                // B's merger queues behind it; B's compressed records fill the limit, then B's task thread waits.
                Future<MapOutput> outputB = tasks.submit(() -> {
                    for (ShuffleRecord record : recordsB) {
                        writerB.write(record);
                    }
                    return writerB.commit();
                });
                awaitSteady(host, limit);
                assertTrue(!outputB.isDone(), "B finished without waiting: no deadlock was set up");
                // A's task thread now waits for memory that only B's queued merger would free.
                long start = System.nanoTime();
                Future<MapOutput> outputA = tasks.submit(() -> {
                    for (ShuffleRecord record : recordsA.subList(1, recordsA.size())) {
                        writerA.write(record);
                    }
                    return writerA.commit();
                });
                Exception failure = assertThrows(Exception.class, () -> outputA.get(timeoutSeconds + 60,
                        TimeUnit.SECONDS));
                double seconds = (System.nanoTime() - start) / 1e9;
                assertTrue(Causes.of(failure).contains("#15208") && Causes.of(failure).contains("merger=cooperative"),
                        Causes.of(failure));
                assertTrue(seconds < timeoutSeconds + 30, "A failed after " + seconds + " s");
                writerA.close();
                // The slot is free: B's merger runs, and B's output is whole.
                try (MapOutput output = outputB.get(60, TimeUnit.SECONDS);
                     PartitionReader reader = output.openReader(storage)) {
                    assertTrue(Verifier.verify(reader, b.expected, b.input.schema, ShuffleCodec.LZ4_BLOCK, allocator)
                            .ok());
                    output.delete(storage);
                }
                writerB.close();
            }
            assertEquals(List.of(), Threads.sluiceThreads(), "threads left");
            try (Stream<Path> left = Files.list(dir)) {
                assertEquals(List.of(), left.map(p -> p.getFileName().toString()).collect(Collectors.toList()));
            }
            assertEquals(0, storage.filesLeft());
            Leaks.assertNone(allocator, held, "blocking merger deadlock");
        } finally {
            tasks.shutdownNow();
            assertTrue(tasks.awaitTermination(30, TimeUnit.SECONDS));
        }
    }

    /** Waits until the executor's memory use stops changing near the limit (B's task thread is waiting). */
    private static void awaitSteady(ExecutorMemory host, long limit) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        long last = -1;
        int steady = 0;
        while (System.nanoTime() < deadline && steady < 5) {
            long used = host.budget().used();
            steady = used == last && used > limit / 2 ? steady + 1 : 0;
            last = used;
            Thread.sleep(100);
        }
        assertTrue(steady >= 5, "memory use never settled near the limit: " + last + " of " + limit);
    }
}
