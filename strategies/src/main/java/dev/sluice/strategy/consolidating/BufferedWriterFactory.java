package dev.sluice.strategy.consolidating;

import dev.sluice.spi.Bytes;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.StoragePlan;
import dev.sluice.spi.MemoryPlan;
import dev.sluice.spi.TaskShape;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.ShuffleWriterFactory;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.option.OptionValues;
import dev.sluice.spi.option.StrategyOption;
import dev.sluice.spi.option.StrategyOptions;
import dev.sluice.spi.memory.HostAllocator;

/**
 * {@code buffered}: spark-rapids PR-13724 ("V2 phase 1": the writer uses as much memory as allowed, and writes in a
 * pipeline), as at its commit e465ec3851: partial buffers that start at 128 MiB and double, and a commit that writes
 * one batch's partial in one call or merges several.
 */
public final class BufferedWriterFactory implements ShuffleWriterFactory {
    public static final String NAME = "buffered";

    static final StrategyOption<Long> INITIAL_PARTIAL = ConsolidatingOptions.initialPartial(128 * Bytes.MiB,
            ConsolidatingOptions.PR_13724);
    private static final StrategyOptions OPTIONS = ConsolidatingOptions.declare(INITIAL_PARTIAL);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "records compressed by writer slots into per-batch partial buffers (128 MiB, doubling), one write of "
                + "a single batch at commit, a merge of several (spark-rapids PR-13724)";
    }

    @Override
    public String upstream() {
        return "spark-rapids PR-13724 @ " + ConsolidatingOptions.PR_13724
                + " (RapidsShuffleInternalManagerBase, SpillablePartialFileHandle, RapidsLocalDiskShuffleMapOutputWriter)";
    }

    @Override
    public StrategyOptions options() {
        return OPTIONS;
    }

    @Override
    public String check(WriterConfig config, OptionValues options) {
        return ConsolidatingOptions.check(config, options, INITIAL_PARTIAL);
    }

    @Override
    public void planMemory(MemoryPlan plan, WriterConfig config, OptionValues options, TaskShape shape) {
        settings(config, options).planMemory(plan, config, shape);
    }

    @Override
    public void planStorage(StoragePlan plan, WriterConfig config, OptionValues options, TaskShape shape) {
        settings(config, options).planStorage(plan, config, shape);
    }

    @Override
    public ShuffleExecutor createExecutor(WriterConfig config, OptionValues options, CountedStorage storage,
                                          HostAllocator allocator) {
        return new ConsolidatingExecutor(NAME, config, settings(config, options), storage, allocator);
    }

    private static ConsolidatingSettings settings(WriterConfig config, OptionValues options) {
        return new ConsolidatingSettings(config, options, INITIAL_PARTIAL, PartialSizing.DOUBLING, false);
    }
}
