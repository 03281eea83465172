package dev.sluice.jmh;

import dev.sluice.core.io.Bytes;
import dev.sluice.core.io.CountedStorage;
import dev.sluice.core.memory.DoesNotFitException;
import dev.sluice.core.memory.MemoryPlan;
import dev.sluice.core.output.MapOutput;
import dev.sluice.core.output.PartitionReader;
import dev.sluice.core.partition.PartitionedInput;
import dev.sluice.core.partition.ShuffleRecord;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.verify.Reference;
import dev.sluice.core.verify.VerificationResult;
import dev.sluice.core.verify.Verifier;
import dev.sluice.core.write.MapTask;
import dev.sluice.core.write.ShuffleExecutor;
import dev.sluice.core.write.ShuffleWriter;
import dev.sluice.core.write.StrategySpec;
import dev.sluice.core.write.WriterConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What the shuffle-write benchmarks share: a strategy's executor (its pools serve every JMH thread, as an executor
 * serves concurrent map tasks), storage counted for {@link ShuffleIoProfiler}, one verified write per trial before
 * anything is measured, and the removal of each iteration's output outside the measured region.
 */
public abstract class ShuffleBenchmarkBase extends BenchmarkInput {
    @Param({"per-batch", "buffered", "async"})
    public String strategy;

    @Param({"lz4-frame"})
    public String codec;

    @Param({"16"})
    public int threads;

    /** The executor's host memory limit, or {@code none} (upstream's default). */
    @Param({"none"})
    public String memoryLimit;

    /** fsync of data and index files at commit. */
    @Param({"false"})
    public boolean sync;

    protected BufferAllocator allocator;
    protected CountedStorage storage;
    protected ShuffleExecutor executor;
    protected WriterConfig config;
    protected Reference reference;
    protected Schema schema;
    protected StrategySpec strategySpec;
    private Path dir;
    private final Queue<MapOutput> outputs = new ConcurrentLinkedQueue<>();
    private final AtomicLong mapIds = new AtomicLong();

    /** Generates the input (and whatever the benchmark keeps of it); sets {@link #reference} and {@link #schema}. */
    protected abstract void prepareInput() throws Exception;

    protected abstract void releaseInput();

    protected void startTrial() throws Exception {
        strategySpec = StrategySpec.parse("strategy", strategy);
        checkMemory();
        allocator = new RootAllocator();
        prepareInput();
        dir = newTrialDirectory("sluice-jmh-");
        config = configBuilder().outputDir(dir).build();
        storage = new CountedStorage();
        executor = strategySpec.createExecutor(config, storage, allocator);
        IoMetrics.register(storage);
    }

    private WriterConfig.Builder configBuilder() {
        return WriterConfig.builder().partitions(partitions).threads(threads)
                .memoryLimit("none".equals(memoryLimit) ? WriterConfig.UNLIMITED : Bytes.parse(memoryLimit))
                .codec(ShuffleCodec.parse("codec", codec)).fsync(sync);
    }

    /**
     * Refuses a configuration that cannot fit this machine before any input is made, with the numbers: the input,
     * its partitioned copy, and what the strategy's writers may hold for each of the JMH threads' map tasks.
     */
    private void checkMemory() {
        WriterConfig probe = configBuilder().outputDir(Path.of(System.getProperty("java.io.tmpdir"))).build();
        strategySpec.check("strategy", probe);
        long input = inputSpec().targetBytes();
        MemoryPlan plan = new MemoryPlan().offHeap("input", input).offHeap("partitioned input", input);
        strategySpec.planMemory(plan, probe, 1, input);
        String refusal = plan.refusal(MemoryPlan.availableMemory(), Runtime.getRuntime().maxMemory());
        if (refusal != null) {
            throw new DoesNotFitException(strategy + " at " + size + " x " + scale + " " + refusal);
        }
    }

    /** Writes one map task outside the measured region and reads it back: wrong bytes fail the benchmark. */
    protected void verifyOnce(PartitionedInput records) throws Exception {
        MapOutput output = writeMapTask(records);
        outputs.remove(output);
        try (output; PartitionReader reader = output.openReader(storage)) {
            VerificationResult result = Verifier.verify(reader, reference, schema, config.codec, allocator);
            if (!result.ok()) {
                throw new IllegalStateException("strategy " + strategy + " wrote wrong bytes: " + result);
            }
            System.out.printf("sluice verify: %s %s%n", strategy, result);
        } finally {
            output.delete(storage);
        }
    }

    /** One map task: a fresh writer, every record, commit. */
    protected MapOutput writeMapTask(PartitionedInput records) throws IOException, InterruptedException {
        MapOutput output;
        long peak;
        try (ShuffleWriter writer = executor.createMapOutputWriter(new MapTask(0, mapIds.getAndIncrement(), schema))) {
            for (ShuffleRecord record : records.records()) {
                writer.write(record);
            }
            output = writer.commit();
            peak = writer.peakBufferedBytes();
        }
        outputs.add(output);
        IoMetrics.mapTaskDone(peak);
        return output;
    }

    @Override
    protected void removeIterationOutput() throws IOException {
        MapOutput output;
        while ((output = outputs.poll()) != null) {
            try (MapOutput o = output) {
                o.delete(storage);
            }
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        IoMetrics.register(null);
        try {
            removeIterationOutput();
            executor.close();
        } finally {
            releaseInput();
            allocator.close();
            deleteTrialDirectory(dir);
        }
    }
}
