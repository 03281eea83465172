package dev.sluice.jmh;

import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.core.memory.DoesNotFitException;
import dev.sluice.core.measure.Meminfo;
import dev.sluice.spi.MemoryPlan;
import dev.sluice.core.run.DirtyPages;
import dev.sluice.core.run.Wave;
import dev.sluice.core.run.WaveInput;
import dev.sluice.core.run.WaveMemory;
import dev.sluice.core.run.WaveResult;
import dev.sluice.core.run.WaveStorage;
import dev.sluice.core.run.Workload;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.strategy.StrategySpec;
import dev.sluice.spi.WriterConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.arrow.memory.BufferAllocator;

/**
 * One strategy of a trial: its spec, checked against the workload before any input is made (a configuration whose
 * memory or storage cannot fit this machine is refused with the numbers), then its configuration and counted storage
 * in a directory of its own on the trial's storage, and its executor. {@link ExecutorState} runs one for a whole
 * trial; {@link PairedState} runs several in turn, each executor living for one wave.
 */
final class StrategyTrial implements AutoCloseable {
    /** The spec as given. */
    final String text;
    final StrategySpec spec;
    /** The {@code memoryLimit} parameter's value for this strategy, as given. */
    final String memoryLimit;
    private final WriterConfig.Builder builder;
    /** The codec of the records this strategy is given. */
    private final ShuffleCodec codec;
    private WriterConfig config;
    private CountedStorage storage;
    private Path dir;
    /** What the strategy's executors allocate from: a child of the trial's, so that what one keeps can be seen. */
    private BufferAllocator allocator;
    private ShuffleExecutor executor;

    private StrategyTrial(String text, StrategySpec spec, String memoryLimit, WriterConfig.Builder builder,
                          ShuffleCodec codec) {
        this.text = text;
        this.codec = codec;
        this.spec = spec;
        this.memoryLimit = memoryLimit;
        this.builder = builder;
    }

    /**
     * Parses and checks {@code text} for {@code workload}: the spec and its options, its memory against this machine's
     * and the JVM's, its files against the trial directory's file system; prints its warnings. Creates nothing.
     *
     * @param parameter the JMH parameter the spec came from, for errors
     */
    static StrategyTrial check(String parameter, String text, String memoryLimit, WriterSettings settings,
                               Workload workload) throws IOException {
        StrategySpec spec = StrategySpec.parse(parameter, text);
        WriterConfig.Builder builder = settings.config(workload, memoryLimit);
        WriterConfig probe = builder.outputDir(Path.of(System.getProperty("java.io.tmpdir"))).build();
        if (MemoryLimit.MACHINE.equals(memoryLimit)) {
            System.out.printf(Locale.ROOT, "sluice: %s: memoryLimit=%s: %d bytes, this machine's memory%n", text,
                    memoryLimit, probe.memoryLimit);
        }
        spec.check(parameter, probe);
        for (String warning : spec.warnings(probe)) {
            System.err.println("sluice: warning: " + text + ": " + warning);
        }
        MemoryPlan plan = WaveMemory.plan(spec, probe, workload);
        String refusal = plan.refusal(Meminfo.available(), Runtime.getRuntime().maxMemory());
        if (refusal == null) {
            // The trial's files go under -Dsluice.dir or the temp directory (TrialDirectory).
            refusal = WaveStorage.plan(spec, probe, workload).refusal(TrialDirectory.base());
        }
        if (refusal != null) {
            throw new DoesNotFitException(String.format(Locale.ROOT, "%s at %s x %.3f with %d tasks %s", text,
                    workload.size.label(), workload.scale, workload.tasks, refusal));
        }
        return new StrategyTrial(text, spec, memoryLimit, builder, workload.codec);
    }

    /**
     * Makes the strategy's directory on the trial's storage, its counted storage, and the allocator its executors'
     * memory comes from, a child of {@code parent}.
     */
    void open(StorageState trialStorage, BufferAllocator parent) throws IOException {
        dir = trialStorage.newTrialDirectory("sluice-jmh-");
        config = builder.outputDir(dir).build();
        storage = new CountedStorage();
        allocator = parent.newChildAllocator("strategy " + text, 0, Long.MAX_VALUE);
    }

    /** Starts the strategy's executor. */
    void startExecutor() {
        executor = spec.createExecutor(config, storage, allocator);
    }

    /**
     * What the running executor holds of the strategy's allocator: once a wave's outputs are gone, what it keeps
     * between map tasks (ideal's and {@code pool=true}'s buffer pools); 0 for a strategy that keeps nothing.
     */
    long heldBytes() {
        return allocator == null ? 0 : allocator.getAllocatedMemory();
    }

    /** Stops the executor and frees what it keeps between map tasks (thread pools, buffer pools), if it runs. */
    void stopExecutor() {
        ShuffleExecutor running = executor;
        executor = null;
        if (running != null) {
            running.close();
        }
    }

    /** One wave of every task of {@code input} at once through the running executor; the caller owns the result. */
    WaveResult runWave(Wave wave, WaveInput input, DirtyPages dirty) throws Exception {
        return wave.run(executor, input, codec, storage, dirty);
    }

    ShuffleCodec codec() {
        return codec;
    }

    WriterConfig config() {
        return config;
    }

    CountedStorage storage() {
        return storage;
    }

    /**
     * Stops the executor, closes the strategy's allocator (which fails if anything of it is still allocated: a leak)
     * and removes the strategy's directory with everything in it.
     */
    @Override
    public void close() throws IOException {
        try {
            stopExecutor();
        } finally {
            try {
                if (allocator != null) {
                    allocator.close();
                }
            } finally {
                TrialDirectory.remove(dir);
            }
        }
    }
}
