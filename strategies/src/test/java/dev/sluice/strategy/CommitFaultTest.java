package dev.sluice.strategy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.storage.IoFaults;
import dev.sluice.spi.storage.WriteKind;
import dev.sluice.testkit.Causes;
import dev.sluice.testkit.Leaks;
import dev.sluice.testkit.MapTaskRun;
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
 * Per-batch's commit copies each partition file into the data file in the kernel ({@code transferTo}); storage that
 * fails there leaves nothing. (Renames, fsync and every write call, for every strategy, are the kit's contract:
 * {@link dev.sluice.testkit.ShuffleWriterContract}.)
 */
class CommitFaultTest {
    @TempDir
    Path dir;

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
        ShuffleCodec codec = ShuffleCodec.LZ4_FRAME;
        WriterConfig config = WriterConfig.builder().partitions(7).threads(3)
                .outputDir(dir).build();
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(InputSpec.of(DataSize.TINY, 0.05).withRowsPerBatch(1024),
                     Partitioning.HASH, 7, allocator)) {
            CountedStorage storage = new CountedStorage(failingTransfer);
            Exception e = assertThrows(Exception.class,
                    () -> run.write(Strategies.spec("per-batch"), config, codec, storage, allocator));
            assertTrue(Causes.of(e).contains("injected fault: transfer into"), Causes.of(e));
            try (Stream<Path> left = Files.list(dir)) {
                assertEquals(List.of(), left.map(p -> p.getFileName().toString()).collect(Collectors.toList()));
            }
            assertEquals(0, storage.filesLeft());
            Leaks.assertNone(allocator, run.heldBytes(), "per-batch failing a transfer");
        }
    }
}
