package dev.sluice.strategy.consolidating;

import dev.sluice.spi.MemoryPlan;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.ShuffleWriterFactory;
import dev.sluice.spi.StoragePlan;
import dev.sluice.spi.TaskShape;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.memory.HostAllocator;
import dev.sluice.spi.option.OptionValues;
import dev.sluice.spi.option.StrategyOption;
import dev.sluice.spi.option.StrategyOptions;
import dev.sluice.spi.storage.CountedStorage;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A consolidating design as a strategy: everything buffered (PR-13724) and async (PR-14090) share, over one option
 * table ({@link ConsolidatingOptions}); each design is a {@link Design} of a few constants that says where it
 * differs: its first partial, how partials grow, and whether it can skip the merge.
 */
abstract class ConsolidatingFactory implements ShuffleWriterFactory {
    /** What one consolidating design fixes. */
    static final class Design {
        final String name;
        final String description;
        final String upstream;
        /** Its own first partial: the default differs between the PRs. */
        final StrategyOption<Long> initialPartial;
        /** How its partials grow, for a configuration. */
        final Function<WriterConfig, PartialSizing> sizing;
        /** Its skip-merge option, or null where the design always merges. */
        final StrategyOption<Boolean> skipMerge;
        final StrategyOptions options;

        Design(String name, String description, String upstream, StrategyOption<Long> initialPartial,
               Function<WriterConfig, PartialSizing> sizing, StrategyOption<Boolean> skipMerge) {
            this.name = name;
            this.description = description;
            this.upstream = upstream;
            this.initialPartial = initialPartial;
            this.sizing = sizing;
            this.skipMerge = skipMerge;
            List<StrategyOption<?>> own = new ArrayList<>();
            if (skipMerge != null) {
                own.add(skipMerge);
            }
            own.add(initialPartial);
            this.options = ConsolidatingOptions.declare(own.toArray(new StrategyOption<?>[0]));
        }
    }

    /** {@code GpuShuffleEnv.init}'s warning, in Sluice's words. */
    static final String SKIP_MERGE_WITHOUT_LIMIT = "skipMerge=true is ignored without a memory limit: the partials "
            + "are merged into a data file, as upstream disables the segment catalog when "
            + "spark.rapids.memory.host.offHeapLimit.enabled is false (give --memory-limit SIZE to skip the merge)";

    private final Design design;

    ConsolidatingFactory(Design design) {
        this.design = design;
    }

    @Override
    public final String name() {
        return design.name;
    }

    @Override
    public final String description() {
        return design.description;
    }

    @Override
    public final String upstream() {
        return design.upstream;
    }

    @Override
    public final StrategyOptions options() {
        return design.options;
    }

    @Override
    public final String check(WriterConfig config, OptionValues options) {
        return ConsolidatingOptions.check(config, options, design.initialPartial);
    }

    @Override
    public final List<String> warnings(WriterConfig config, OptionValues options) {
        if (design.skipMerge != null && options.get(design.skipMerge) && !config.hasMemoryLimit()) {
            return List.of(SKIP_MERGE_WITHOUT_LIMIT);
        }
        return List.of();
    }

    @Override
    public final void planMemory(MemoryPlan plan, WriterConfig config, OptionValues options, TaskShape shape) {
        settings(config, options).planMemory(plan, config, shape);
    }

    @Override
    public final void planStorage(StoragePlan plan, WriterConfig config, OptionValues options, TaskShape shape) {
        settings(config, options).planStorage(plan, config, shape);
    }

    @Override
    public final ShuffleExecutor createExecutor(WriterConfig config, OptionValues options, CountedStorage storage,
                                                HostAllocator allocator) {
        return new ConsolidatingExecutor(design.name, config, settings(config, options), storage, allocator);
    }

    /** Skip-merge only where upstream would enable its catalog: with a memory limit. */
    private ConsolidatingSettings settings(WriterConfig config, OptionValues options) {
        boolean skipsMerge = design.skipMerge != null && options.get(design.skipMerge) && config.hasMemoryLimit();
        return new ConsolidatingSettings(config, options, design.initialPartial, design.sizing.apply(config),
                skipsMerge);
    }
}
