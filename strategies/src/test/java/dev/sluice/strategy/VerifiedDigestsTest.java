package dev.sluice.strategy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.run.TaskInput;
import dev.sluice.core.run.Wave;
import dev.sluice.core.run.WaveInput;
import dev.sluice.core.run.WaveResult;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.verify.Expected;
import dev.sluice.core.verify.OutputDigest;
import dev.sluice.core.verify.VerificationResult;
import dev.sluice.core.verify.VerifiedDigests;
import dev.sluice.core.verify.Verifier;
import dev.sluice.spi.PartitionReader;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.testkit.Leaks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Digests of outputs verified row by row, shared by the forks of one run. */
class VerifiedDigestsTest {
    private static final int TASKS = 2;
    private static final int PARTITIONS = 17;

    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void digestsRecordedForOneStrategyAcceptEveryOtherStrategysOutputOfTheSameInput() throws Exception {
        InputSpec spec = InputSpec.of(DataSize.TINY, 0.25).withBatches(2);
        Path verified = dir.resolve("verified");
        VerifiedDigests cache = new VerifiedDigests(verified);
        String key;
        try (BufferAllocator allocator = new RootAllocator();
             WaveInput input = WaveInput.prepare(spec, TASKS, Partitioning.ROUNDROBIN, PARTITIONS, 0, allocator,
                     (task, bytes) -> {})) {
            long held = allocator.getAllocatedMemory();
            key = VerifiedDigests.key(input.tasks().get(0).schema, ShuffleCodec.LZ4_BLOCK, references(input));
            assertEquals(Optional.empty(), cache.lookup(key), "nothing recorded yet");
            List<OutputDigest> first = write("per-batch", input, allocator, true);
            cache.record(key, first);
            for (String strategy : List.of("buffered", "async", "async:skipMerge=true")) {
                assertEquals(Optional.of(first), cache.lookup(key), strategy + ": what per-batch recorded");
                assertEquals(first, write(strategy, input, allocator, false), strategy + " wrote per-batch's bytes");
            }
            Leaks.assertNone(allocator, held, "waves");
        }
        try (Stream<Path> files = Files.list(verified)) {
            assertEquals(List.of(key + ".digests"), files.map(p -> p.getFileName().toString())
                    .collect(Collectors.toList()), "one entry, no temporary file left");
        }
    }

    @Test
    @Timeout(60)
    void theKeyIsWhatTheOutputsMustDecodeToAndOtherInputsHaveOtherBytes() throws Exception {
        InputSpec spec = InputSpec.of(DataSize.TINY, 0.25);
        try (BufferAllocator allocator = new RootAllocator();
             WaveInput a = prepare(spec, Partitioning.ROUNDROBIN, allocator);
             WaveInput same = prepare(spec, Partitioning.ROUNDROBIN, allocator);
             WaveInput otherSeed = prepare(spec.withSeed(spec.seed + 7), Partitioning.ROUNDROBIN, allocator);
             WaveInput hashed = prepare(spec, Partitioning.HASH, allocator)) {
            var schema = a.tasks().get(0).schema;
            String key = VerifiedDigests.key(schema, ShuffleCodec.LZ4_BLOCK, references(a));
            assertEquals(key, VerifiedDigests.key(schema, ShuffleCodec.LZ4_BLOCK, references(same)));
            assertNotEquals(key, VerifiedDigests.key(schema, ShuffleCodec.LZ4_FRAME, references(a)), "codec");
            assertNotEquals(key, VerifiedDigests.key(schema, ShuffleCodec.LZ4_BLOCK, references(otherSeed)), "rows");
            assertNotEquals(key, VerifiedDigests.key(schema, ShuffleCodec.LZ4_BLOCK, references(hashed)),
                    "partitioning");
            assertNotEquals(write("per-batch", a, allocator, true), write("per-batch", otherSeed, allocator, true),
                    "another input's output has other bytes");
        }
    }

    @Test
    void aDigestReadsBackAsWritten() {
        OutputDigest digest = OutputDigest.parse("0 ffffffffffffffff 1a2b");
        assertEquals("0 ffffffffffffffff 1a2b", digest.format());
        assertEquals(digest, OutputDigest.parse(digest.format()));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> OutputDigest.parse("12 zz"));
        assertTrue(e.getMessage().contains("partition 1 is 'zz'"), e.getMessage());
    }

    private static WaveInput prepare(InputSpec spec, Partitioning partitioning, BufferAllocator allocator) {
        return WaveInput.prepare(spec, 1, partitioning, PARTITIONS, 0, allocator, (task, bytes) -> {});
    }

    private static List<Expected> references(WaveInput input) {
        List<Expected> references = new ArrayList<>();
        for (TaskInput task : input.tasks()) {
            references.add(task.expected);
        }
        return references;
    }

    /** One wave of {@code strategy}; every output's digest, each output verified row by row first if asked. */
    private List<OutputDigest> write(String strategy, WaveInput input, BufferAllocator allocator, boolean rowByRow)
            throws Exception {
        CountedStorage storage = new CountedStorage();
        Path out = Files.createTempDirectory(dir, "out");
        ShuffleCodec codec = ShuffleCodec.LZ4_BLOCK;
        WriterConfig config = WriterConfig.builder().partitions(PARTITIONS).threads(2)
                .memoryLimit(1L << 30).outputDir(out).build();
        List<OutputDigest> digests = new ArrayList<>();
        try (ShuffleExecutor executor = Strategies.spec(strategy).createExecutor(config, storage, allocator);
             Wave wave = new Wave(input.size());
             WaveResult result = wave.run(executor, input, codec, storage, null)) {
            try {
                for (var task : result.tasks) {
                    try (PartitionReader reader = task.output.openReader(storage)) {
                        if (rowByRow) {
                            VerificationResult rows = Verifier.verify(reader, task.input.expected, task.input.schema,
                                    codec, allocator);
                            assertTrue(rows.ok(), strategy + ": " + rows);
                        }
                        digests.add(OutputDigest.of(reader));
                    }
                }
            } finally {
                result.delete(storage);
            }
        }
        return digests;
    }
}
