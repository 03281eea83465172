package dev.sluice.core.run;

import dev.sluice.core.strategy.StrategySpec;
import dev.sluice.spi.StoragePlan;
import dev.sluice.spi.WriterConfig;

/**
 * What a wave of {@code workload} through {@code strategy} may need of its output directory's file system at once,
 * for the command line and the benchmarks alike: the strategy's own plan for the wave's tasks.
 */
public final class WaveStorage {
    private WaveStorage() {}

    public static StoragePlan plan(StrategySpec strategy, WriterConfig config, Workload workload) {
        StoragePlan plan = new StoragePlan();
        strategy.planStorage(plan, config, workload.taskShape());
        return plan;
    }
}
