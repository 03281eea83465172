package dev.sluice.jmh.write;

import dev.sluice.core.run.ReduceRead;
import dev.sluice.core.run.Trial;
import dev.sluice.core.run.WaveResult;
import dev.sluice.core.run.WaveVerification;
import dev.sluice.core.verify.VerifiedDigests;
import dev.sluice.jmh.profile.Figures;
import dev.sluice.jmh.state.GateState;
import dev.sluice.jmh.state.InputState;
import java.nio.file.Paths;
import org.apache.arrow.memory.BufferAllocator;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * After each measured wave of a {@link ShuffleWriteBenchmark} (outside its time): the reduce side's read, the
 * verification of every output (core's {@link WaveVerification}: the first wave row by row, later ones by digest), the
 * iteration's figures to the profiler, and the outputs removed, so that the next iteration starts from none. A
 * warm-up wave's outputs (of the inputs' warm-up copies, see {@link InputState}) are only removed.
 */
@State(Scope.Benchmark)
public class IterationState {
    /**
     * A directory where forks of one run share the digests of outputs they verified row by row (scripts/bench.sh sets
     * it for its run); unset, every fork verifies its first wave row by row.
     */
    public static final String VERIFIED_DIGESTS_PROPERTY = "sluice.verifiedDigests";

    private final WaveVerification verification = verification();
    private WaveResult wave;

    /** The run's verification: sharing verified digests with the run's other forks where the property names a place. */
    static WaveVerification verification() {
        String shared = System.getProperty(VERIFIED_DIGESTS_PROPERTY, "");
        return new WaveVerification(shared.isBlank() ? null : new VerifiedDigests(Paths.get(shared)), System.out);
    }

    /** The reduce side's read of a measured wave, then its verification; fails the trial on a wrong byte. */
    static ReduceRead.Result readAndVerify(WaveVerification verification, WaveResult wave, Trial trial,
                                           BufferAllocator allocator) throws Exception {
        ReduceRead.Result read = ReduceRead.readAll(wave.outputs(), trial.storage());
        WaveVerification.Outcome outcome = verification.verify(wave, trial, allocator);
        if (!outcome.ok()) {
            throw new IllegalStateException(outcome.failure);
        }
        return read;
    }

    /** The benchmark hands over the wave it measured. */
    void measured(WaveResult result) {
        wave = result;
    }

    @TearDown(Level.Iteration)
    public void readVerifyAndRemove(ExecutorState executor, GateState gate, InputState inputs,
                                    IterationParams params) throws Exception {
        if (wave == null) {
            return;
        }
        try {
            if (params.getType() == IterationType.WARMUP) {
                return; // a warm-up copy's output: removed below, neither read nor verified, as it is not measured
            }
            ReduceRead.Result read = readAndVerify(verification, wave, executor.trial(), inputs.allocator());
            Figures.publish(WaveFigures.of(wave, read, gate.settled(), executor.device()));
        } finally {
            executor.tookMemory(wave);
            wave.delete(executor.storage());
            wave = null;
        }
    }
}
