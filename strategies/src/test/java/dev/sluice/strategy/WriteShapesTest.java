package dev.sluice.strategy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.run.Wave;
import dev.sluice.core.run.WaveInput;
import dev.sluice.core.run.WaveResult;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.strategy.StrategySpec;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.testkit.Leaks;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * How the faithful strategies meet the disk, as a wave measures it (WaveResult's share written at commit, the
 * map-stage model's write shape): per-batch writes its partition files while the task makes its output and copies them
 * into the data file at commit, half its bytes each; buffered holds the output in memory and writes it all at commit.
 */
class WriteShapesTest {
    private static final int TASKS = 2;
    private static final int PARTITIONS = 13;

    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void perBatchWritesHalfItsBytesAtCommitAndBufferedAllOfThem() throws Exception {
        InputSpec spec = InputSpec.of(DataSize.TINY, 1).withBatches(4);
        try (BufferAllocator allocator = new RootAllocator();
             WaveInput input = WaveInput.prepare(spec, TASKS, Partitioning.HASH, PARTITIONS, 0, allocator,
                     (task, bytes) -> {})) {
            long held = allocator.getAllocatedMemory();
            // Per-batch: its partition files, then their copy, and the index and checksum files (a few bytes) at commit.
            assertEquals(0.5, atCommitShare(Strategies.spec("per-batch"), input, allocator), 1e-3, "per-batch");
            assertEquals(1.0, atCommitShare(Strategies.spec("buffered"), input, allocator), 1e-9, "buffered");
            Leaks.assertNone(allocator, held, "waves");
        }
    }

    private double atCommitShare(StrategySpec strategy, WaveInput input, BufferAllocator allocator) throws Exception {
        CountedStorage storage = new CountedStorage();
        Path out = Files.createTempDirectory(dir, "out");
        WriterConfig config = WriterConfig.builder().partitions(PARTITIONS).threads(2).outputDir(out).build();
        try (ShuffleExecutor executor = strategy.createExecutor(config, storage, allocator);
             Wave wave = new Wave(input.size());
             WaveResult result = wave.run(executor, input, ShuffleCodec.LZ4_BLOCK, storage, null)) {
            try {
                return result.atCommitShare();
            } finally {
                result.delete(storage);
            }
        }
    }
}
