package dev.sluice.bench.teststrategy;

import dev.sluice.spi.MemoryPlan;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.ShuffleWriterFactory;
import dev.sluice.spi.TaskShape;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.memory.HostAllocator;
import dev.sluice.spi.option.OptionValues;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.strategy.perbatch.PerBatchWriterFactory;

/**
 * {@code it-per-batch}: a third party's strategy for the scripts' tests, per-batch under another name. It is not
 * registered in this module's class path: ScriptsIT packs it into a jar of its own with a
 * {@code META-INF/services} entry and hands that to the scripts through {@code SLUICE_CLASSPATH}.
 */
public class RenamedPerBatchFactory implements ShuffleWriterFactory {
    private final ShuffleWriterFactory perBatch = new PerBatchWriterFactory();

    @Override
    public String name() {
        return "it-per-batch";
    }

    @Override
    public String description() {
        return "per-batch under another name, from a jar outside benchmarks.jar (a test strategy)";
    }

    @Override
    public void planMemory(MemoryPlan plan, WriterConfig config, OptionValues options, TaskShape shape) {
        perBatch.planMemory(plan, config, perBatch.options().defaults(), shape);
    }

    @Override
    public ShuffleExecutor createExecutor(WriterConfig config, OptionValues options, CountedStorage storage,
                                          HostAllocator allocator) {
        return perBatch.createExecutor(config, perBatch.options().defaults(), storage, allocator);
    }
}
