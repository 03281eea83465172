package dev.sluice.jmh;

import dev.sluice.core.device.EmulatedDevice;
import dev.sluice.core.io.CountedStorage;
import dev.sluice.core.run.DirtyPages;
import dev.sluice.core.run.Wave;
import dev.sluice.core.run.WaveResult;
import dev.sluice.core.write.ShuffleExecutor;
import dev.sluice.core.write.WriterConfig;
import java.io.IOException;
import java.nio.file.Path;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * The strategy's executor for the trial, its counted storage in a fresh directory, and the wave's task threads.
 * ({@link IterationState} verifies every wave's outputs.)
 */
@State(Scope.Benchmark)
public class ExecutorState {
    /** Map outputs and scratch files go under this directory (a fresh subdirectory per trial). */
    public static final String DIR_PROPERTY = TrialDirectory.DIR_PROPERTY;

    private Path dir;
    private WriterConfig config;
    private CountedStorage storage;
    private ShuffleExecutor executor;
    private Wave wave;
    private InputState inputs;
    private DirtyPages dirty;
    private boolean warmingUp;
    private EmulatedDevice device;

    @Setup(Level.Trial)
    public void start(WriterState writers, InputState inputs, GateState gate, StorageState storageState)
            throws Exception {
        this.inputs = inputs;
        this.dirty = gate.dirty();
        this.device = storageState.emulated();
        dir = storageState.newTrialDirectory("sluice-jmh-");
        try {
            config = writers.config(dir);
            storage = new CountedStorage();
            executor = writers.spec().createExecutor(config, storage, inputs.allocator());
            wave = new Wave(inputs.input().size());
        } catch (Exception | Error e) {
            // JMH runs no teardown after a failed setup.
            try {
                stop();
            } catch (Exception | Error suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** Whether this iteration is a warm-up, which writes the inputs' warm-up copies. */
    @Setup(Level.Iteration)
    public void iteration(IterationParams params) {
        warmingUp = params.getType() == IterationType.WARMUP;
    }

    /** One wave of every task at once (of the warm-up copies in a warm-up iteration); the caller owns the result. */
    public WaveResult runWave() throws Exception {
        return wave.run(executor, warmingUp ? inputs.warmUp() : inputs.input(), config.codec, storage, dirty);
    }

    public CountedStorage storage() {
        return storage;
    }

    /** The trial's emulated device, or null on native storage. */
    EmulatedDevice device() {
        return device;
    }

    @TearDown(Level.Trial)
    public void stop() throws IOException {
        try {
            if (wave != null) {
                wave.close();
            }
        } finally {
            try {
                if (executor != null) {
                    executor.close();
                }
            } finally {
                TrialDirectory.remove(dir);
            }
        }
    }
}
