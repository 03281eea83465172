package dev.sluice.core.run;

import dev.sluice.core.measure.Meminfo;
import dev.sluice.core.memory.DoesNotFitException;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.strategy.StrategySpec;
import dev.sluice.spi.MemoryPlan;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.StoragePlan;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.storage.CountedStorage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.apache.arrow.memory.BufferAllocator;

/**
 * One strategy of a run, the way every entry point runs one (the command line, the benchmarks): its spec checked with
 * the run's writer settings against the workload before anything is created (its options, its memory against this
 * machine's and the JVM's, its files against the file system they go to: a configuration that cannot fit is refused
 * with the numbers), then its counted storage and an allocator of its own in the run's directory, its executor, and
 * its waves. The caller makes the inputs (between the check and the first wave) and verifies each wave
 * ({@link dev.sluice.core.run.WaveVerification}).
 */
public final class Trial implements AutoCloseable {
    /** The spec as given. */
    public final String text;
    public final StrategySpec spec;
    private final WriterConfig.Builder settings;
    private final ShuffleCodec codec;
    private final WriterConfig probe;
    private final StoragePlan storagePlan;
    private WriterConfig config;
    private CountedStorage storage;
    private BufferAllocator allocator;
    private ShuffleExecutor executor;

    private Trial(String text, StrategySpec spec, WriterConfig.Builder settings, ShuffleCodec codec, WriterConfig probe,
                  StoragePlan storagePlan) {
        this.text = text;
        this.spec = spec;
        this.settings = settings;
        this.codec = codec;
        this.probe = probe;
        this.storagePlan = storagePlan;
    }

    /**
     * Parses and checks {@code text} with {@code settings} (a writer configuration without its output directory) for
     * {@code workload}, whose files would go to {@code filesDir} (or its nearest existing parent). Creates nothing.
     *
     * @param parameter the parameter the spec came from, for errors
     * @throws dev.sluice.spi.InvalidParameterException for a spec or option that is not allowed
     * @throws DoesNotFitException for a configuration whose memory or files cannot fit
     */
    public static Trial check(String parameter, String text, WriterConfig.Builder settings, Workload workload,
                              Path filesDir) throws IOException {
        StrategySpec spec = StrategySpec.parse(parameter, text);
        WriterConfig probe = settings.outputDir(filesDir).build();
        spec.check(parameter, probe);
        String what = String.format(Locale.ROOT, "%s at %s x %.3f with %d task%s ", text, workload.size.label(),
                workload.scale, workload.tasks, workload.tasks == 1 ? "" : "s");
        MemoryPlan memory = WaveMemory.plan(spec, probe, workload);
        String refusal = memory.refusal(Meminfo.available(), Runtime.getRuntime().maxMemory());
        if (refusal != null) {
            throw new DoesNotFitException(what + refusal);
        }
        StoragePlan storagePlan = WaveStorage.plan(spec, probe, workload);
        refusal = storagePlan.refusal(filesDir);
        if (refusal != null) {
            throw new DoesNotFitException(what + refusal);
        }
        return new Trial(text, spec, settings, workload.codec, probe, storagePlan);
    }

    /** What the spec will not do with these settings although it runs, as upstream would only log it. */
    public List<String> warnings() {
        return spec.warnings(probe);
    }

    /** The writer configuration as checked (its output directory the one of the check). */
    public WriterConfig checkedConfig() {
        return probe;
    }

    /** The most the run's files may take of their file system at once, and the files open at once. */
    public StoragePlan storagePlan() {
        return storagePlan;
    }

    /**
     * Gives the strategy its output directory {@code dir}, its counted storage, and an allocator of its own, a child of
     * {@code parent}, that its executors' memory comes from (so that what an executor keeps can be seen, and what it
     * leaks fails the close).
     */
    public void open(Path dir, CountedStorage countedStorage, BufferAllocator parent) {
        config = settings.outputDir(dir).build();
        storage = countedStorage;
        allocator = parent.newChildAllocator("strategy " + text, 0, Long.MAX_VALUE);
    }

    /** Starts the strategy's executor. */
    public void startExecutor() {
        executor = spec.createExecutor(config, storage, allocator);
    }

    /** Stops the executor and frees what it keeps between map tasks (thread pools, buffer pools), if it runs. */
    public void stopExecutor() {
        ShuffleExecutor running = executor;
        executor = null;
        if (running != null) {
            running.close();
        }
    }

    /**
     * What the running executor holds of the strategy's allocator: once a wave's outputs are gone, what it keeps
     * between map tasks (ideal's and {@code pool=true}'s buffer pools); 0 for a strategy that keeps nothing.
     */
    public long heldBytes() {
        return allocator == null ? 0 : allocator.getAllocatedMemory();
    }

    /** One wave of every task of {@code input} at once through the running executor; the caller owns the result. */
    public WaveResult runWave(Wave wave, WaveInput input, DirtyPages dirty) throws Exception {
        return wave.run(executor, input, codec, storage, dirty);
    }

    /** The running executor, for a caller that runs its map tasks itself (the GPU experiment). */
    public ShuffleExecutor executor() {
        if (executor == null) {
            throw new IllegalStateException(text + ": no executor runs (startExecutor first)");
        }
        return executor;
    }

    public WriterConfig config() {
        return config;
    }

    public CountedStorage storage() {
        return storage;
    }

    /** The codec of the records the strategy is given. */
    public ShuffleCodec codec() {
        return codec;
    }

    /** Stops the executor and closes the strategy's allocator, which fails if anything of it is still allocated. */
    @Override
    public void close() {
        try {
            stopExecutor();
        } finally {
            if (allocator != null) {
                allocator.close();
                allocator = null;
            }
        }
    }
}
