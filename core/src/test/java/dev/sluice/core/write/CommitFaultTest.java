package dev.sluice.core.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.Causes;
import dev.sluice.core.MapTaskRun;
import dev.sluice.core.Threads;
import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.io.Bytes;
import dev.sluice.core.io.CountedStorage;
import dev.sluice.core.io.IoFaults;
import dev.sluice.core.io.WriteKind;
import dev.sluice.core.output.MapOutput;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.serde.ShuffleCodec;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Storage that fails at each rename of a commit (index, data, checksum file), at fsync, and per-batch's kernel copy:
 * the writer throws with the injected cause, and leaves no data, index, checksum or temp file, no Arrow memory and no
 * thread. (Failing at every write call is {@link WriterFailureTest}'s sweep.)
 */
class CommitFaultTest {
    @TempDir
    Path dir;

    static Stream<StrategySpec> strategies() {
        return Strategies.codePaths();
    }

    private WriterConfig config(boolean fsync) {
        return WriterConfig.builder().partitions(7).threads(3).memoryLimit(256 * Bytes.KiB)
                .codec(ShuffleCodec.LZ4_FRAME).fsync(fsync).outputDir(dir).build();
    }

    private static InputSpec input() {
        return InputSpec.of(DataSize.TINY, 0.05).withRowsPerBatch(1024);
    }

    @ParameterizedTest
    @MethodSource("strategies")
    @Timeout(60)
    void failingAtEachRenameLeavesNothing(StrategySpec strategy) throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(input(), Partitioning.ROUNDROBIN, 7, allocator)) {
            CountedStorage counting = new CountedStorage();
            try (MapOutput output = run.write(strategy, config(false), counting, allocator)) {
                output.delete(counting);
            }
            long renames = counting.counters().snapshot().renames;
            boolean checksums = "true".equals(strategy.describeOptions().get("checksum"));
            boolean skipMerge = "true".equals(strategy.describeOptions().get("skipMerge"));
            assertEquals(skipMerge ? 0 : checksums ? 3 : 2, renames,
                    strategy + ": renames of index, data and checksum file");
            for (long k = 1; k <= renames; k++) {
                assertFailsCleanly(run, allocator, strategy, IoFaults.failingRename(k), "rename #" + k, k > 1);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("strategies")
    @Timeout(60)
    void failingAtFsyncLeavesNothing(StrategySpec strategy) throws Exception {
        if ("true".equals(strategy.describeOptions().get("skipMerge"))) {
            return; // skip-merge commits no file to force
        }
        IoFaults failingForce = new IoFaults() {
            @Override
            public void beforeForce(Path file) throws IOException {
                throw new IOException("injected fault: fsync of " + file.getFileName());
            }
        };
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(input(), Partitioning.HASH, 7, allocator)) {
            assertFailsCleanly(run, allocator, strategy, failingForce, "fsync of", true);
        }
    }

    @Test
    @Timeout(60)
    void aTransferFailureAtPerBatchsCommitLeavesNothing() throws Exception {
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
            assertFailsCleanly(run, allocator, Strategies.spec("per-batch"), failingTransfer, "transfer into", false);
        }
    }

    private void assertFailsCleanly(MapTaskRun run, BufferAllocator allocator, StrategySpec strategy, IoFaults faults,
                                    String what, boolean fsync) throws Exception {
        CountedStorage storage = new CountedStorage(faults);
        long before = allocator.getAllocatedMemory();
        Exception e = assertThrows(Exception.class, () -> run.write(strategy, config(fsync), storage, allocator),
                strategy + ": " + what);
        assertTrue(Causes.of(e).contains("injected fault: " + what), strategy + ", " + what + ": " + Causes.of(e));
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(), left.map(p -> p.getFileName().toString()).collect(Collectors.toList()),
                    strategy + ", " + what);
        }
        assertEquals(0, storage.filesLeft(), what);
        assertEquals(before, allocator.getAllocatedMemory(), strategy + ", " + what + ": writer memory not released");
        assertEquals(List.of(), Threads.sluiceThreads(), what);
    }
}
