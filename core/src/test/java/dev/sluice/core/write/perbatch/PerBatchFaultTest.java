package dev.sluice.core.write.perbatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.MapTaskRun;
import dev.sluice.core.Threads;
import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.io.CountedStorage;
import dev.sluice.core.io.IoFaults;
import dev.sluice.core.io.WriteKind;
import dev.sluice.core.output.MapOutput;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.write.WriterConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Storage that fails at every possible write call of a run, at each rename and at fsync: the writer throws with the
 * injected cause, and leaves no data, index or temp file, no Arrow memory and no thread.
 */
class PerBatchFaultTest {
    @TempDir
    Path dir;

    private static WriterConfig config(Path dir, boolean fsync) {
        return WriterConfig.builder().partitions(7).threads(3).bufferSize(4096).maxBytesInFlight(64 * 1024)
                .codec(ShuffleCodec.LZ4_FRAME).fsync(fsync).outputDir(dir).build();
    }

    private static InputSpec input() {
        return InputSpec.of(DataSize.TINY, 0.05).withRowsPerBatch(1024);
    }

    @Test
    @Timeout(120)
    void failingAtEveryWriteCallLeavesNothing() throws Exception {
        long calls;
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(input(), Partitioning.HASH, 7, allocator)) {
            CountedStorage counting = new CountedStorage();
            try (MapOutput output = run.write(new PerBatchWriterFactory(), config(dir, false), counting, allocator)) {
                output.delete(counting);
            }
            calls = counting.counters().snapshot().writeCalls;
            assertTrue(calls > 30, "too few write calls to sweep: " + calls);
            for (long k = 1; k <= calls; k++) {
                // Calls from k on fail; with several writer threads, a later-numbered one may be the first seen.
                assertFailsCleanly(run, allocator, IoFaults.failingWriteCall(k), "write call #", false);
            }
        }
    }

    @Test
    @Timeout(60)
    void failingAtEitherRenameLeavesNothing() throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(input(), Partitioning.ROUNDROBIN, 7, allocator)) {
            assertFailsCleanly(run, allocator, IoFaults.failingRename(1), "rename #1", false);
            assertFailsCleanly(run, allocator, IoFaults.failingRename(2), "rename #2", true);
        }
    }

    @Test
    @Timeout(60)
    void failingAtFsyncLeavesNothing() throws Exception {
        IoFaults failingForce = new IoFaults() {
            @Override
            public void beforeForce(Path file) throws IOException {
                throw new IOException("injected fault: fsync of " + file.getFileName());
            }
        };
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(input(), Partitioning.HASH, 7, allocator)) {
            assertFailsCleanly(run, allocator, failingForce, "fsync of", true);
        }
    }

    @Test
    @Timeout(60)
    void aTransferFailureAtCommitLeavesNothing() throws Exception {
        IoFaults failingTransfer = new IoFaults() {
            @Override
            public void beforeWrite(long callNumber, Path file, long bytes, WriteKind kind) throws IOException {
                if (kind == WriteKind.TRANSFER) {
                    throw new IOException("injected fault: transfer into " + file.getFileName());
                }
            }
        };
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(input(), Partitioning.HASH, 7, allocator)) {
            assertFailsCleanly(run, allocator, failingTransfer, "transfer into", false);
        }
    }

    private void assertFailsCleanly(MapTaskRun run, BufferAllocator allocator, IoFaults faults, String what,
                                    boolean fsync) throws Exception {
        CountedStorage storage = new CountedStorage(faults);
        long before = allocator.getAllocatedMemory();
        Exception e = assertThrows(Exception.class,
                () -> run.write(new PerBatchWriterFactory(), config(dir, fsync), storage, allocator), what);
        assertTrue(causes(e).contains("injected fault: " + what), what + ": unexpected failure " + causes(e));
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(), left.map(p -> p.getFileName().toString()).collect(Collectors.toList()), what);
        }
        assertEquals(0, storage.filesLeft(), what);
        assertEquals(before, allocator.getAllocatedMemory(), what + ": writer memory not released");
        assertEquals(List.of(), Threads.sluiceThreads(), what);
    }

    private static String causes(Throwable e) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            all.append(t).append(" <- ");
        }
        return all.toString();
    }
}
