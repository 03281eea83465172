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
import dev.sluice.core.verify.OutputDigest;
import dev.sluice.spi.PartitionReader;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.testkit.Leaks;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bytes every built-in strategy writes for one fixed input, per codec, pinned: a change to the data path (how a
 * record reaches its codec, how a piece is framed) must leave every byte of every partition as it was. The expected
 * digests were taken from the code before the direct path from Arrow's buffers into the lz4 block stream.
 */
class OutputBytesAreFixedTest {
    private static final int TASKS = 2;
    private static final int PARTITIONS = 13;

    /** SHA-256 over the partition digests of both tasks' outputs, per codec. */
    private static final Map<ShuffleCodec, String> EXPECTED = Map.of(
            ShuffleCodec.NONE, "866ef87dca6e83d3cf45419174b981aed719a7baec7f6fc063f857f5d15465e1",
            ShuffleCodec.LZ4_FRAME, "0aca07ee73115bb78c60ade7f09250fa5b8e8784bf3a2194d595f31454484e5b",
            ShuffleCodec.LZ4_BLOCK, "a87d9232530df254e566fa5be3c5b3aa1faff819ae899966a20df8d885db5d98",
            ShuffleCodec.ZSTD, "c089e0acaee9d96582fbe26f908dba85035c4b7d06d6992d8a98992a0c9fc58f");

    @TempDir
    Path dir;

    @Test
    @Timeout(300)
    void everyBuiltInStrategyWritesTheSameBytesAsBeforeInEveryCodec() throws Exception {
        InputSpec spec = InputSpec.of(DataSize.TINY, 0.25).withBatches(2);
        Map<String, String> seen = new TreeMap<>();
        try (BufferAllocator allocator = new RootAllocator();
             WaveInput input = WaveInput.prepare(spec, TASKS, Partitioning.HASH, PARTITIONS, 0, allocator,
                     (task, bytes) -> {})) {
            long held = allocator.getAllocatedMemory();
            for (ShuffleCodec codec : ShuffleCodec.values()) {
                for (StrategySpec strategy : Stream.concat(Strategies.defaults(), Stream.of(
                        Strategies.spec("buffered:partial=records:pool=true:recordBuffer=direct:merge=gather"),
                        Strategies.spec("per-batch:mergeCopy=stream:checksum=false")))
                        .collect(Collectors.toList())) {
                    seen.put(codec.label() + " " + strategy.text(), digest(strategy, codec, input, allocator));
                }
            }
            Leaks.assertNone(allocator, held, "waves");
        }
        Map<String, String> expected = new TreeMap<>();
        seen.keySet().forEach(k -> expected.put(k, EXPECTED.get(ShuffleCodec.parse("codec", k.split(" ")[0]))));
        assertEquals(expected, seen);
    }

    private String digest(StrategySpec strategy, ShuffleCodec codec, WaveInput input, BufferAllocator allocator)
            throws Exception {
        CountedStorage storage = new CountedStorage();
        Path out = Files.createTempDirectory(dir, "out");
        WriterConfig config = WriterConfig.builder().partitions(PARTITIONS).threads(2)
                .outputDir(out).build();
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        try (ShuffleExecutor executor = strategy.createExecutor(config, storage, allocator);
             Wave wave = new Wave(input.size());
             WaveResult result = wave.run(executor, input, codec, storage, null)) {
            try {
                for (var task : result.tasks) {
                    try (PartitionReader reader = task.output.openReader(storage)) {
                        sha.update(OutputDigest.of(reader).format().getBytes(StandardCharsets.US_ASCII));
                    }
                }
            } finally {
                result.delete(storage);
            }
        }
        return HexFormat.of().formatHex(sha.digest());
    }
}
