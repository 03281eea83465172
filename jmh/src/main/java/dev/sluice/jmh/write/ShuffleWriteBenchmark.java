package dev.sluice.jmh.write;

import dev.sluice.core.run.WaveResult;
import dev.sluice.jmh.RunSettings;
import dev.sluice.jmh.profile.WaveWindow;
import dev.sluice.jmh.state.GateState;
import org.openjdk.jmh.annotations.Benchmark;

/**
 * The seed's mapper stage: one operation is one wave, {@code tasks} map tasks written at once through one executor
 * of the strategy and committed, each with its own pre-generated, pre-partitioned input. Its time is the wave's; the
 * reduce-side read that completes the seed's query, the sum of task durations, the slowest task and the I/O figures
 * are secondary results ({@link ShuffleIoProfiler}).
 */
public class ShuffleWriteBenchmark extends RunSettings {
    @Benchmark
    public WaveResult wave(ExecutorState executor, GateState gate, IterationState iteration) throws Exception {
        WaveResult result;
        WaveWindow.opened();
        try {
            result = executor.runWave();
        } finally {
            WaveWindow.closed();
        }
        iteration.measured(result);
        return result;
    }
}
