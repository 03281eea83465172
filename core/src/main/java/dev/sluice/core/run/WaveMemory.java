package dev.sluice.core.run;

import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.strategy.StrategySpec;
import dev.sluice.spi.MemoryPlan;
import dev.sluice.spi.TaskShape;
import dev.sluice.spi.WriterConfig;

/**
 * What a wave of {@code workload} through {@code strategy} may hold at once, for the command line and the benchmarks
 * alike: every task's input for the whole run, and on top of it either the partitioned copies being made (hash
 * partitioning gathers each batch into a copy, one task per processor at a time; round robin needs none) or what the
 * strategy's writers hold while the wave runs, whichever is more.
 */
public final class WaveMemory {
    private WaveMemory() {}

    public static MemoryPlan plan(StrategySpec strategy, WriterConfig config, Workload workload) {
        long input = workload.taskBytes();
        MemoryPlan writers = new MemoryPlan();
        strategy.planMemory(writers, config, new TaskShape(workload.tasks, input, workload.batchesPerTask()));
        MemoryPlan plan = new MemoryPlan().offHeap("inputs (" + workload.tasks + " tasks)", workload.tasks * input);
        long copies = workload.partitioning == Partitioning.HASH
                ? WaveInput.preparingThreads(workload.tasks) * input : 0;
        if (writers.offHeapTotal() >= copies) {
            return plan.include(writers);
        }
        return plan.offHeap("inputs being gathered by partition, before the wave", copies)
                .heap("writers", writers.heapTotal());
    }
}
