package dev.sluice.core.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.Causes;
import dev.sluice.core.Leaks;
import dev.sluice.core.MapTaskRun;
import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.io.Bytes;
import dev.sluice.core.io.CountedStorage;
import dev.sluice.core.io.IoFaults;
import dev.sluice.core.io.WriteKind;
import dev.sluice.core.output.MapOutput;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.partition.ShuffleRecord;
import dev.sluice.core.serde.ShuffleCodec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.arrow.memory.AllocationListener;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every strategy, failing in each way upstream hung or leaked: a compression task that throws, storage failing inside
 * the background work, the task thread interrupted, an abort mid-run. Each fails promptly with its cause and leaves
 * no file, no memory and no thread.
 */
class WriterFailureTest {
    @TempDir
    Path dir;

    /** Every code path, with small buffers and a small in-flight quota so that the task thread waits. */
    static Stream<StrategySpec> strategies() {
        return Strategies.codePaths().map(s -> Strategies.with(s, "fileBuffer=4k", "maxBytesInFlight=64k"));
    }

    private static InputSpec input() {
        return InputSpec.of(DataSize.TINY, 0.25).withRowsPerBatch(2048);
    }

    /** A small memory limit, so that partials go to file. */
    private WriterConfig config(int partitions) {
        return WriterConfig.builder().partitions(partitions).threads(3).memoryLimit(256 * Bytes.KiB)
                .codec(ShuffleCodec.LZ4_FRAME).outputDir(dir).build();
    }

    @ParameterizedTest
    @MethodSource("strategies")
    @Timeout(60)
    void aCompressionTaskThatThrowsFailsTheWriterWithItsCause(StrategySpec factory) throws Exception {
        FailingCompression failing = new FailingCompression();
        try (BufferAllocator allocator = new RootAllocator(failing, Long.MAX_VALUE);
             MapTaskRun run = new MapTaskRun(input(), Partitioning.HASH, 7, allocator)) {
            failing.armAfter(40);
            Exception e = assertThrows(Exception.class,
                    () -> writeAll(factory, run, run.records.records(), new CountedStorage(), allocator));
            assertTrue(Causes.of(e).contains("injected compression failure"), Causes.of(e));
            assertClean(allocator, run, factory + " compression failure");
        }
    }

    @ParameterizedTest
    @MethodSource("strategies")
    @Timeout(120)
    void storageFailingAtAnyWriteCallInsideTheWriterLeavesNothing(StrategySpec factory) throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(input(), Partitioning.ROUNDROBIN, 7, allocator)) {
            CountedStorage counting = new CountedStorage();
            try (MapOutput output = writeAll(factory, run, run.records.records(), counting, allocator)) {
                output.delete(counting);
            }
            long calls = counting.counters().snapshot().writeCalls;
            assertTrue(calls >= 3, factory + ": too few write calls to sweep: " + calls);
            assertTrue(counting.counters().snapshot().spilledBytes > 0 || factory.name().equals("per-batch"),
                    factory + " did not spill: the sweep would not reach the merger's writes");
            // Spills depend on timing (with skip-merge, they are the only writes), so a run may make fewer calls than
            // the counting run: such a run must then succeed and verify. At least a quarter must fail.
            long step = Math.max(1, calls / 60);
            int failed = 0;
            int runs = 0;
            for (long k = 1; k <= calls; k += step) {
                runs++;
                CountedStorage failing = new CountedStorage(IoFaults.failingWriteCall(k));
                try (MapOutput output = writeAll(factory, run, run.records.records(), failing, allocator)) {
                    assertTrue(ConsolidatingFidelityTest.verify(run, output, failing, allocator, ShuffleCodec.LZ4_FRAME).ok());
                    output.delete(failing);
                } catch (Exception e) {
                    failed++;
                    assertTrue(Causes.of(e).contains("injected fault: write call #"), Causes.of(e));
                }
                assertClean(allocator, run, factory + " failing at write call #" + k);
            }
            assertTrue(failed * 4 >= runs, factory + ": only " + failed + " of " + runs + " runs failed");
        }
    }

    @ParameterizedTest
    @MethodSource("strategies")
    @Timeout(60)
    void anInterruptOfTheTaskThreadStopsTheWriterCleanly(StrategySpec factory) throws Exception {
        IoFaults slowDisk = new IoFaults() {
            @Override
            public void beforeWrite(long callNumber, Path file, long bytes, WriteKind kind) throws IOException {
                try {
                    Thread.sleep(2);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted", e);
                }
            }
        };
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(InputSpec.of(DataSize.TINY, 1).withRowsPerBatch(2048),
                     Partitioning.HASH, 7, allocator)) {
            CountDownLatch started = new CountDownLatch(1);
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread task = new Thread(() -> {
                try {
                    writeAll(factory, run, run.records.records(), new CountedStorage(slowDisk), allocator, started);
                } catch (Throwable t) {
                    thrown.set(t);
                }
            }, "map-task");
            task.start();
            assertTrue(started.await(10, TimeUnit.SECONDS));
            Thread.sleep(50);
            task.interrupt();
            task.join(TimeUnit.SECONDS.toMillis(30));
            assertTrue(!task.isAlive(), "task thread still running after its interrupt");
            assertTrue(thrown.get() != null, "the writer finished despite the interrupt");
            assertTrue(Causes.of(thrown.get()).contains("Interrupt"), Causes.of(thrown.get()));
            assertClean(allocator, run, factory + " interrupted");
        }
    }

    @ParameterizedTest
    @MethodSource("strategies")
    @Timeout(60)
    void abortMidRunLeavesNothingAndRefusesMoreRecords(StrategySpec factory) throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(input(), Partitioning.HASH, 7, allocator)) {
            CountedStorage storage = new CountedStorage();
            try (ShuffleExecutor executor = factory.createExecutor(config(7), storage, allocator)) {
                ShuffleWriter writer = executor.createMapOutputWriter(run.task());
                List<ShuffleRecord> records = run.records.records();
                for (ShuffleRecord record : records.subList(0, records.size() / 2)) {
                    writer.write(record);
                }
                writer.abort(new IOException("map task killed"));
                assertThrows(IllegalStateException.class, () -> writer.write(records.get(records.size() / 2)));
                assertThrows(IllegalStateException.class, writer::commit);
                writer.close();
                assertEquals(0, storage.filesLeft());
            }
            assertClean(allocator, run, factory + " aborted");
        }
    }

    private MapOutput writeAll(StrategySpec factory, MapTaskRun run, List<ShuffleRecord> records,
                               CountedStorage storage, BufferAllocator allocator) throws Exception {
        return writeAll(factory, run, records, storage, allocator, new CountDownLatch(1));
    }

    private MapOutput writeAll(StrategySpec factory, MapTaskRun run, List<ShuffleRecord> records,
                               CountedStorage storage, BufferAllocator allocator, CountDownLatch started)
            throws Exception {
        try (ShuffleExecutor executor = factory.createExecutor(config(7), storage, allocator);
             ShuffleWriter writer = executor.createMapOutputWriter(run.task())) {
            started.countDown();
            for (ShuffleRecord record : records) {
                writer.write(record);
            }
            return writer.commit();
        }
    }

    private void assertClean(BufferAllocator allocator, MapTaskRun run, String what) throws IOException {
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(), left.map(p -> p.getFileName().toString()).collect(Collectors.toList()), what);
        }
        Leaks.assertNone(allocator, run.heldBytes(), what);
    }

    /** Fails the n-th Arrow allocation made on a writer thread (where records are serialized and compressed). */
    private static final class FailingCompression implements AllocationListener {
        private final AtomicInteger countdown = new AtomicInteger(Integer.MAX_VALUE);

        void armAfter(int allocations) {
            countdown.set(allocations);
        }

        @Override
        public void onPreAllocation(long size) {
            if (Thread.currentThread().getName().contains("-writer-") && countdown.decrementAndGet() < 0) {
                throw new IllegalStateException("injected compression failure");
            }
        }
    }
}
