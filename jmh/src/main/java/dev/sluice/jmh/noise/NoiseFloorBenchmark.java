package dev.sluice.jmh.noise;

import dev.sluice.core.run.Workload;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.jmh.RunSettings;
import dev.sluice.spi.OwnedThreads;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The machine's own spread, measured in the same run as the waves: every iteration does exactly the same work, with
 * no I/O and no allocation, on as many threads as the wave has tasks: each compresses the same buffer of 64 MiB in
 * Spark's 32 KiB lz4 blocks, {@code rounds} times, with the compressor the writers use. Whatever varies between its
 * iterations is the machine (its processors' clock, its neighbours on the host, its memory), not Sluice nor the
 * storage; a wave's error cannot be expected below this one's with the same number of iterations.
 */
public class NoiseFloorBenchmark extends RunSettings {
    static final int BUFFER = 64 << 20;

    /** The fixed work of every iteration and the threads that do it. */
    @State(Scope.Benchmark)
    public static class ConstantWork {
        /** Threads working at once: the wave's map tasks. */
        @Param({Workload.DEFAULT_TASKS})
        public int tasks;

        /** Passes over each thread's buffer per iteration. */
        @Param({"96"})
        public int rounds;

        private final LZ4Compressor compressor = LZ4Factory.fastestInstance().fastCompressor();
        private final List<ByteBuffer> sources = new ArrayList<>();
        private final List<ByteBuffer> targets = new ArrayList<>();
        private ExecutorService threads;

        @Setup(Level.Trial)
        public void start() {
            if (tasks < 1 || rounds < 1) {
                throw new IllegalArgumentException("invalid tasks " + tasks + " or rounds " + rounds
                        + ": allowed are integers >= 1");
            }
            int bound = compressor.maxCompressedLength(ShuffleCodec.LZ4_BLOCK_SIZE);
            for (int t = 0; t < tasks; t++) {
                // Values of a few hundred thousand distinct ints: lz4 finds some matches, as in the waves' columns.
                ByteBuffer source = ByteBuffer.allocateDirect(BUFFER);
                SplittableRandom random = new SplittableRandom(42 + t);
                while (source.hasRemaining()) {
                    source.putInt(random.nextInt(1 << 18));
                }
                sources.add(source.flip());
                targets.add(ByteBuffer.allocateDirect(bound));
            }
            threads = Executors.newFixedThreadPool(tasks, new OwnedThreads("sluice-noise"));
        }

        /** One thread's work: compressed bytes, returned so that nothing is optimized away. */
        long work(int t) {
            ByteBuffer source = sources.get(t);
            ByteBuffer target = targets.get(t);
            long compressed = 0;
            for (int round = 0; round < rounds; round++) {
                for (int at = 0; at < BUFFER; at += ShuffleCodec.LZ4_BLOCK_SIZE) {
                    compressed += compressor.compress(source, at, ShuffleCodec.LZ4_BLOCK_SIZE, target, 0,
                            target.capacity());
                }
            }
            return compressed;
        }

        @TearDown(Level.Trial)
        public void stop() {
            threads.shutdownNow();
        }
    }

    @Benchmark
    public long constantWork(ConstantWork work) throws Exception {
        List<Future<Long>> results = new ArrayList<>();
        for (int t = 0; t < work.tasks; t++) {
            int task = t;
            results.add(work.threads.submit(() -> work.work(task)));
        }
        long compressed = 0;
        for (Future<Long> result : results) {
            compressed += result.get(10, TimeUnit.MINUTES);
        }
        return compressed;
    }
}
