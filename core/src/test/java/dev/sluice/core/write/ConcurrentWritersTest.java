package dev.sluice.core.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.Causes;
import dev.sluice.core.Leaks;
import dev.sluice.core.input.BatchGenerator;
import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.input.MapTaskInput;
import dev.sluice.core.io.Bytes;
import dev.sluice.core.io.CountedStorage;
import dev.sluice.core.output.MapOutput;
import dev.sluice.core.output.PartitionReader;
import dev.sluice.core.partition.PartitionedInput;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.partition.ShuffleRecord;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.verify.Reference;
import dev.sluice.core.verify.VerificationResult;
import dev.sluice.core.verify.Verifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** 16 map tasks at once on one executor's pools, as the seed report ran 16 tasks per executor. */
class ConcurrentWritersTest {
    private static final int TASKS = 16;
    private static final int PARTITIONS = 20;

    @TempDir
    Path dir;

    /** Every code path with a generous limit and with a tight one, and the defaults without a limit. */
    static List<Arguments> cases() {
        List<Arguments> all = new ArrayList<>();
        Strategies.defaults().forEach(s -> all.add(Arguments.of(s.text(), WriterConfig.UNLIMITED)));
        Strategies.codePaths().forEach(s -> {
            all.add(Arguments.of(s.text(), 256 * Bytes.MiB));
            all.add(Arguments.of(s.text(), 512 * Bytes.KiB));
        });
        return all;
    }

    /**
     * Every task verifies. Blocking mergers on fixed slots (upstream's design at PR-13724) can wait on each other
     * under a tight limit (spark-rapids #15208): there a task may instead fail, naming that cause, after its merger's
     * bounded wait (5 s here), and the rest then finish; none hangs.
     */
    @ParameterizedTest(name = "{0}, memory limit {1}")
    @MethodSource("cases")
    @Timeout(180)
    void sixteenWritersOnSharedPoolsAllVerify(String strategy, long memoryLimit) throws Exception {
        boolean blocking = "blocking".equals(Strategies.spec(strategy).describeOptions().get("merger"));
        String previous = System.setProperty("sluice.blockingMerger.timeoutSeconds", "5");
        try {
            runSixteen(strategy, memoryLimit, blocking);
        } finally {
            if (previous == null) {
                System.clearProperty("sluice.blockingMerger.timeoutSeconds");
            } else {
                System.setProperty("sluice.blockingMerger.timeoutSeconds", previous);
            }
        }
    }

    private void runSixteen(String strategy, long memoryLimit, boolean blocking) throws Exception {
        InputSpec spec = InputSpec.of(DataSize.TINY, 0.25).withRowsPerBatch(2048);
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskInput input = BatchGenerator.generate(spec, allocator);
             PartitionedInput records = PartitionedInput.partition(input,
                     Partitioning.HASH.create(PARTITIONS, 0), allocator)) {
            Reference reference = Reference.compute(input, Partitioning.HASH.create(PARTITIONS, 0));
            long held = allocator.getAllocatedMemory();
            CountedStorage storage = new CountedStorage();
            WriterConfig config = WriterConfig.builder().partitions(PARTITIONS).threads(4).memoryLimit(memoryLimit)
                    .codec(ShuffleCodec.LZ4_FRAME).outputDir(dir).build();
            StrategySpec given = Strategies.spec(strategy);
            // The reference takes no options: it has no flow control to tighten.
            StrategySpec writers = given.options().describe().containsKey("maxBytesInFlight")
                    ? Strategies.with(given, "maxBytesInFlight=256k") : given;
            boolean exact = "exact".equals(writers.describeOptions().get("memoryBound"));
            ExecutorService tasks = Executors.newFixedThreadPool(TASKS);
            try (ShuffleExecutor executor = writers.createExecutor(config, storage, allocator)) {
                List<Future<VerificationResult>> results = new ArrayList<>();
                for (int t = 0; t < TASKS; t++) {
                    long mapId = t;
                    results.add(tasks.submit(() -> {
                        MapOutput output;
                        try (ShuffleWriter writer = executor.createMapOutputWriter(new MapTask(0, mapId, input.schema()))) {
                            for (ShuffleRecord record : records.records()) {
                                writer.write(record);
                            }
                            output = writer.commit();
                            assertTrue(writer.peakBufferedBytes() <= memoryLimit || !exact,
                                    "peak " + writer.peakBufferedBytes() + " over an exact limit of " + memoryLimit);
                        }
                        try (output; PartitionReader reader = output.openReader(storage)) {
                            return Verifier.verify(reader, reference, input.schema(), config.codec, allocator);
                        }
                    }));
                }
                int deadlocked = 0;
                for (Future<VerificationResult> result : results) {
                    try {
                        VerificationResult r = result.get(150, TimeUnit.SECONDS);
                        assertTrue(r.ok(), r.toString());
                    } catch (ExecutionException e) {
                        if (!blocking || !Causes.of(e).contains("#15208")) {
                            throw e;
                        }
                        deadlocked++;
                    }
                }
                if (deadlocked > 0) {
                    System.out.printf("%s, limit %d: %d of %d tasks failed after their mergers waited on each other "
                            + "(#15208)%n", strategy, memoryLimit, deadlocked, TASKS);
                }
            } finally {
                tasks.shutdownNow();
                assertTrue(tasks.awaitTermination(30, TimeUnit.SECONDS));
            }
            assertEquals(0, storage.filesLeft());
            Leaks.assertNone(allocator, held, strategy + " x" + TASKS);
        }
    }
}
