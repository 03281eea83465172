package dev.sluice.jmh;

import dev.sluice.core.run.ReduceRead;
import dev.sluice.core.run.WaveResult;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * After each measured wave of a {@link ShuffleWriteBenchmark} (outside its time): the reduce side's read and the
 * verification of every output ({@link WaveCheck}), the iteration's figures to {@link ShuffleIoProfiler}, and the
 * outputs removed, so that the next iteration starts from none. A warm-up wave's outputs (of the inputs' warm-up
 * copies, see {@link InputState}) are only removed.
 */
@State(Scope.Benchmark)
public class IterationState {
    /** The property {@link WaveCheck} shares verified digests through; scripts/bench.sh sets it for its run. */
    public static final String VERIFIED_DIGESTS_PROPERTY = WaveCheck.VERIFIED_DIGESTS_PROPERTY;

    private final WaveCheck check = new WaveCheck();
    private WaveResult wave;

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
            ReduceRead.Result read = check.readAndVerify(wave, executor.trial(), inputs.allocator());
            IterationRecord.publish(IterationRecord.of(wave, read, gate.settled(), executor.device()));
        } finally {
            wave.delete(executor.trial().storage());
            wave = null;
        }
    }
}
