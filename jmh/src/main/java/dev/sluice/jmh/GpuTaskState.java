package dev.sluice.jmh;

import dev.sluice.core.input.BatchGenerator;
import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.input.MapTaskInput;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.verify.Reference;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.core.strategy.StrategySpec;
import dev.sluice.spi.WriterConfig;
import dev.sluice.gpu.GpuPartitioning;
import dev.sluice.gpu.RowMultisets;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One map task of the GPU experiment, shared by its GPU, host and CPU paths so that all write the same rows: the seeded
 * Arrow input ({@code size} x {@code scale}, in the seed's GPU batches per task: 1 for small, 5 for xxlarge), what
 * each partition must hold on either path, and the strategy's executor over counted storage in a fresh directory.
 * Made once per trial, outside any measurement.
 */
@State(Scope.Benchmark)
public class GpuTaskState {
    static final long MAP_ID = 0;

    /** A strategy spec: {@code NAME} or {@code NAME:key=value:...}. */
    @Param({"per-batch", "buffered", "async"})
    public String strategy;

    @Param({"small"})
    public String size;

    @Param({"1"})
    public double scale;

    @Param({"200"})
    public int partitions;

    /** hash or roundrobin, on the device as spark-rapids partitions, on the CPU as Spark's exchange does. */
    @Param({"hash"})
    public String partitioning;

    /**
     * none, lz4-block (Spark's {@code spark.io.compression.codec=lz4}) or zstd (Spark's
     * {@code spark.io.compression.codec=zstd}).
     */
    @Param({"lz4-block"})
    public String codec;

    @Param({"16"})
    public int threads;

    private BufferAllocator allocator;
    private MapTaskInput input;
    private GpuPartitioning gpuPartitioning;
    private Partitioning cpuPartitioning;
    private int startPartition;
    private RowMultisets gpuExpected;
    private Reference cpuExpected;
    private ShuffleCodec shuffleCodec;
    private Path dir;
    private CountedStorage storage;
    private ShuffleExecutor executor;

    @Setup(Level.Trial)
    public void make() throws IOException {
        StrategySpec spec = StrategySpec.parse("strategy", strategy);
        DataSize dataSize = DataSize.parse("size", size);
        gpuPartitioning = GpuPartitioning.parse("partitioning", partitioning);
        cpuPartitioning = Partitioning.parse("partitioning", partitioning);
        shuffleCodec = ShuffleCodec.parse("codec", codec);
        WriterConfig probe = WriterConfig.builder().partitions(partitions).threads(threads)
                .outputDir(Path.of(System.getProperty("java.io.tmpdir"))).build();
        spec.check("strategy", probe);
        long start = System.nanoTime();
        allocator = new RootAllocator();
        input = BatchGenerator.generate(InputSpec.of(dataSize, scale).withBatches(dataSize.seedBatches()), allocator);
        startPartition = gpuPartitioning.startPartition(MAP_ID, partitions);
        gpuExpected = RowMultisets.expected(input.batches(), gpuPartitioning, partitions, startPartition);
        cpuExpected = Reference.compute(input, cpuPartitioning.create(partitions, MAP_ID));
        dir = TrialDirectory.create("sluice-gpu-");
        storage = new CountedStorage();
        executor = spec.createExecutor(WriterConfig.builder().partitions(partitions).threads(threads)
                .outputDir(dir).build(), storage, allocator);
        System.out.printf(Locale.ROOT, "%nsluice input: %s x %.3f, %d rows, %d bytes, %d batches, fingerprint %s, "
                        + "made in %.1f s%n", size, scale, input.rows(), input.bytes(), input.batches().size(),
                input.fingerprint(), (System.nanoTime() - start) / 1e9);
    }

    MapTaskInput input() {
        return input;
    }

    BufferAllocator allocator() {
        return allocator;
    }

    GpuPartitioning gpuPartitioning() {
        return gpuPartitioning;
    }

    Partitioning cpuPartitioning() {
        return cpuPartitioning;
    }

    int startPartition() {
        return startPartition;
    }

    RowMultisets gpuExpected() {
        return gpuExpected;
    }

    Reference cpuExpected() {
        return cpuExpected;
    }

    ShuffleCodec codec() {
        return shuffleCodec;
    }

    CountedStorage storage() {
        return storage;
    }

    ShuffleExecutor executor() {
        return executor;
    }

    @TearDown(Level.Trial)
    public void release() throws IOException {
        try {
            if (executor != null) {
                executor.close();
            }
            if (input != null) {
                input.close();
            }
            if (allocator != null) {
                allocator.close();
            }
        } finally {
            TrialDirectory.remove(dir);
        }
    }
}
