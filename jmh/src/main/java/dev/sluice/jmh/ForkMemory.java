package dev.sluice.jmh;

import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.core.strategy.StrategySpec;
import dev.sluice.jmh.state.MemoryLimit;
import dev.sluice.spi.Bytes;
import dev.sluice.spi.MemoryPlan;
import dev.sluice.spi.TaskShape;
import dev.sluice.spi.WriterConfig;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;

/**
 * The heap and direct memory a fork needs for the configurations it may run: 1 GiB for JMH, Arrow's metadata and
 * the reduce side, plus what the strategies say their records hold on the heap (heap record buffers) and in NIO
 * direct buffers, for as many tasks as the run asks; never less than the 2 GiB every fork had before.
 */
final class ForkMemory {
    static final long BASE = Bytes.GiB;
    static final long MINIMUM = 2 * Bytes.GiB;

    final long heap;
    final long direct;

    private ForkMemory(long heap, long direct) {
        this.heap = heap;
        this.direct = direct;
    }

    static ForkMemory of(Collection<String> strategies, Collection<String> tasks, Collection<String> partitions,
                         Collection<String> memoryLimits) {
        long heap = MINIMUM;
        long direct = MINIMUM;
        for (String strategy : strategies) {
            StrategySpec spec;
            try {
                spec = StrategySpec.parse(BenchmarkParam.STRATEGY.key(), strategy);
            } catch (IllegalArgumentException e) {
                continue; // JMH reports the bad spec when the trial starts
            }
            for (String taskCount : tasks) {
                for (String partitionCount : partitions) {
                    for (String limit : memoryLimits) {
                        MemoryPlan plan = new MemoryPlan();
                        try {
                            WriterConfig config = WriterConfig.builder().partitions(Integer.parseInt(partitionCount))
                                    .memoryLimit(MemoryLimit.parse(BenchmarkParam.MEMORY_LIMIT.key(), limit))
                                    .outputDir(Path.of(System.getProperty("java.io.tmpdir"))).build();
                            spec.planMemory(plan, config, new TaskShape(Integer.parseInt(taskCount), 0, 1));
                        } catch (IllegalArgumentException e) {
                            continue;
                        }
                        heap = Math.max(heap, BASE + plan.heapTotal());
                        direct = Math.max(direct, BASE + plan.directTotal());
                    }
                }
            }
        }
        return new ForkMemory(heap, direct);
    }

    List<String> flags() {
        return List.of("-Xmx" + heap / Bytes.MiB + "m", "-XX:MaxDirectMemorySize=" + direct / Bytes.MiB + "m");
    }
}
