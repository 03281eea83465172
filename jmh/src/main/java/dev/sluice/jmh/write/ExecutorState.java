package dev.sluice.jmh.write;

import dev.sluice.core.device.EmulatedDevice;
import dev.sluice.core.run.DirtyPages;
import dev.sluice.core.run.Trial;
import dev.sluice.core.run.Wave;
import dev.sluice.core.run.WaveResult;
import dev.sluice.jmh.state.FailedSetup;
import dev.sluice.jmh.state.GateState;
import dev.sluice.jmh.state.InputState;
import dev.sluice.jmh.state.StorageState;
import dev.sluice.jmh.state.TrialDirectory;
import dev.sluice.jmh.state.WriterSettings;
import dev.sluice.jmh.state.WriterState;
import dev.sluice.spi.storage.CountedStorage;
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
 * The strategy's executor for the whole trial, its counted storage in a fresh directory, and the wave's task threads;
 * the inputs are made once the strategy was checked. ({@link IterationState} verifies every wave's outputs.)
 */
@State(Scope.Benchmark)
public class ExecutorState {
    private Trial trial;
    private Path dir;
    private Wave wave;
    private InputState inputs;
    private DirtyPages dirty;
    private boolean warmingUp;
    private EmulatedDevice device;
    /** The memory the last wave took ({@link WaveResult#memoryTaken}), for the gate's prefault. */
    private long memoryTaken;

    @Setup(Level.Trial)
    public void start(WriterState writers, WriterSettings settings, InputState inputs, GateState gate,
                      StorageState storageState) throws Exception {
        this.inputs = inputs;
        this.dirty = gate.dirty();
        this.device = storageState.emulated();
        trial = writers.trial();
        try {
            inputs.prepare();
            dir = storageState.newTrialDirectory("sluice-jmh-");
            trial.open(dir, WriterSettings.storage(settings.countings(1).get(0)), inputs.allocator());
            trial.startExecutor();
            wave = new Wave(inputs.input().size(), inputs.workload().producer);
        } catch (Exception | Error e) {
            FailedSetup.undo(e, this::stop);
            throw e;
        }
    }

    /**
     * Whether this iteration is a warm-up, which writes the inputs' warm-up copies; then the gate's prefault of what the
     * last wave took ({@link GateState#prefault}).
     */
    @Setup(Level.Iteration)
    public void iteration(IterationParams params, GateState gate) throws IOException {
        warmingUp = params.getType() == IterationType.WARMUP;
        gate.prefault(memoryTaken);
    }

    /** What a wave took, remembered as its outputs are removed. */
    void tookMemory(WaveResult wave) {
        memoryTaken = wave.memoryTaken();
    }

    /** One wave of every task at once (of the warm-up copies in a warm-up iteration); the caller owns the result. */
    public WaveResult runWave() throws Exception {
        return trial.runWave(wave, warmingUp ? inputs.warmUp() : inputs.input(), dirty);
    }

    public CountedStorage storage() {
        return trial.storage();
    }

    Trial trial() {
        return trial;
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
                if (trial != null) {
                    trial.close();
                }
            } finally {
                TrialDirectory.remove(dir);
            }
        }
    }
}
