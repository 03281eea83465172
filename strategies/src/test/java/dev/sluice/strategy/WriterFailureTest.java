package dev.sluice.strategy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.strategy.StrategySpec;
import dev.sluice.spi.Bytes;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.testkit.Causes;
import dev.sluice.testkit.Leaks;
import dev.sluice.testkit.MapTaskRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
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
 * An Arrow allocation failing inside compression (on a writer thread) fails every built-in code path with its cause
 * and leaves no file, memory or thread: Arrow's {@code VectorUnloader} drops the buffers it compressed before the
 * failure, which the serializer releases. (Every other failure, for every strategy, is the kit's contract:
 * {@link dev.sluice.testkit.ShuffleWriterContract}.)
 */
class WriterFailureTest {
    @TempDir
    Path dir;

    /**
     * The strategies with writer threads: bypass and sort compress on the task thread, where the kit's payload failure
     * covers the same failure.
     */
    static Stream<StrategySpec> strategies() {
        return Strategies.codePaths().filter(s -> !List.of("bypass", "sort").contains(s.name())).map(Strategies::small);
    }

    @ParameterizedTest
    @MethodSource("strategies")
    @Timeout(60)
    void aCompressionTaskThatThrowsFailsTheWriterWithItsCause(StrategySpec factory) throws Exception {
        FailingCompression failing = new FailingCompression();
        ShuffleCodec codec = ShuffleCodec.LZ4_FRAME;
        WriterConfig config = WriterConfig.builder().partitions(7).threads(3).memoryLimit(256 * Bytes.KiB)
                .outputDir(dir).build();
        try (BufferAllocator allocator = new RootAllocator(failing, Long.MAX_VALUE);
             MapTaskRun run = new MapTaskRun(InputSpec.of(DataSize.TINY, 0.25).withRowsPerBatch(2048),
                     Partitioning.HASH, 7, allocator)) {
            failing.armAfter(40);
            Exception e = assertThrows(Exception.class,
                    () -> run.write(factory, config, codec, new CountedStorage(), allocator));
            assertTrue(Causes.of(e).contains("injected compression failure"), Causes.of(e));
            try (Stream<Path> left = Files.list(dir)) {
                assertEquals(List.of(), left.map(p -> p.getFileName().toString()).collect(Collectors.toList()));
            }
            Leaks.assertNone(allocator, run.heldBytes(), factory + " compression failure");
        }
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
