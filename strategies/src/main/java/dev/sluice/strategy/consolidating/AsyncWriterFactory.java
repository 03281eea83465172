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
import java.util.List;
import dev.sluice.spi.memory.HostAllocator;

/**
 * {@code async}: spark-rapids PR-14090 ("V2 phase 2", on top of PR-13724), as at its commit c4d50b3624: partials
 * start at 32 MiB and grow to a prediction from the partitions completed so far; by default the commit merges as
 * PR-13724's does ({@code spark.rapids.shuffle.multithreaded.skipMerge=false}). With {@code skipMerge=true} the commit
 * registers the partials' segments in a catalog and writes nothing; as upstream, only under a host memory limit
 * (without one it warns and merges).
 */
public final class AsyncWriterFactory implements ShuffleWriterFactory {
    public static final String NAME = "async";

    static final StrategyOption<Long> INITIAL_PARTIAL = ConsolidatingOptions.initialPartial(32 * Bytes.MiB,
            ConsolidatingOptions.PR_14090);
    static final StrategyOption<Boolean> SKIP_MERGE = StrategyOption.flag("skipMerge", false,
            "commit registers each batch's segments in a segment catalog that readers are served from; nothing is "
                    + "written unless a partial went to file. Only with a memory limit: without one it is ignored "
                    + "with a warning and the partials are merged, as upstream does",
            "spark.rapids.shuffle.multithreaded.skipMerge = false (RapidsConf.scala @ " + ConsolidatingOptions.PR_14090
                    + "); without spark.rapids.memory.host.offHeapLimit.enabled=true GpuShuffleEnv.init logs a "
                    + "warning and leaves the catalog off (GpuShuffleEnv.scala @ " + ConsolidatingOptions.PR_14090 + ")");
    private static final StrategyOptions OPTIONS = ConsolidatingOptions.declare(SKIP_MERGE, INITIAL_PARTIAL);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "buffered's pipeline with predictive partial sizing (32 MiB, then average partition x partitions x "
                + "1.2); skipMerge=true serves readers from a segment catalog and writes nothing (spark-rapids PR-14090)";
    }

    @Override
    public String upstream() {
        return "spark-rapids PR-14090 @ " + ConsolidatingOptions.PR_14090
                + " (RapidsLocalDiskShuffleMapOutputWriter.capacityHintProvider, MultithreadedShuffleBufferCatalog)";
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
    public List<String> warnings(WriterConfig config, OptionValues options) {
        if (options.get(SKIP_MERGE) && !config.hasMemoryLimit()) {
            return List.of(SKIP_MERGE_WITHOUT_LIMIT);
        }
        return List.of();
    }

    /** {@code GpuShuffleEnv.init}'s warning, in Sluice's words. */
    static final String SKIP_MERGE_WITHOUT_LIMIT = "skipMerge=true is ignored without a memory limit: the partials "
            + "are merged into a data file, as upstream disables the segment catalog when "
            + "spark.rapids.memory.host.offHeapLimit.enabled is false (give --memory-limit SIZE to skip the merge)";

    /** Skip-merge only where upstream would enable its catalog. */
    private static boolean skipsMerge(WriterConfig config, OptionValues options) {
        return options.get(SKIP_MERGE) && config.hasMemoryLimit();
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
        return new ConsolidatingSettings(config, options, INITIAL_PARTIAL, PartialSizing.predictive(config.partitions),
                skipsMerge(config, options));
    }
}
