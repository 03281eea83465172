package dev.sluice.core.run;

import dev.sluice.core.io.StoragePlan;
import dev.sluice.core.memory.TaskShape;
import dev.sluice.core.write.StrategySpec;
import dev.sluice.core.write.WriterConfig;

/**
 * What a wave of {@code workload} through {@code strategy} may need of its output directory's file system at once,
 * for the command line and the benchmarks alike: the strategy's own plan for the wave's tasks.
 */
public final class WaveStorage {
    private WaveStorage() {}

    public static StoragePlan plan(StrategySpec strategy, WriterConfig config, Workload workload) {
        StoragePlan plan = new StoragePlan();
        strategy.planStorage(plan, config, new TaskShape(workload.tasks, workload.taskBytes(),
                workload.batchesPerTask()));
        return plan;
    }
}
