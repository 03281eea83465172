package dev.sluice.jmh.state;

import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.core.run.Trial;
import dev.sluice.core.strategy.StrategySpec;
import dev.sluice.spi.InvalidParameterException;
import java.io.IOException;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The strategy of a trial of one strategy (ShuffleWriteBenchmark, GpuMapTaskBenchmark). Its trial setup checks it
 * with the executor settings ({@link WriterSettings}), and refuses a configuration whose memory or storage cannot fit
 * this machine, before any input is made.
 */
@State(Scope.Benchmark)
public class WriterState {
    /** A strategy spec: {@code NAME} or {@code NAME:key=value:...}. */
    @Param({"per-batch", "buffered", "async"})
    public String strategy;

    private Trial trial;

    @Setup(Level.Trial)
    public void check(WorkloadState workloadState, WriterSettings settings) throws IOException {
        if (strategy.contains(WriterSettings.LIST)) {
            throw new InvalidParameterException(BenchmarkParam.STRATEGY.key(), strategy, "one strategy spec per trial (JMH's -p "
                    + "strategy=a,b makes a trial of each; PairedWaveBenchmark takes several, interleaved: -p "
                    + "strategies=a" + WriterSettings.LIST + "b)");
        }
        trial = settings.check(BenchmarkParam.STRATEGY.key(), strategy, settings.memoryLimits(1).get(0), workloadState.workload());
    }

    public StrategySpec spec() {
        return trial.spec;
    }

    /** The checked strategy, whose files and executor the trial makes. */
    public Trial trial() {
        return trial;
    }
}
