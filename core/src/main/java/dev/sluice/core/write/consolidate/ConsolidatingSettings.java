package dev.sluice.core.write.consolidate;

import dev.sluice.core.write.WriterConfig;
import dev.sluice.core.write.option.OptionValues;
import dev.sluice.core.write.option.StrategyOption;

/** A consolidating strategy's option values and what its design fixes, resolved once per executor. */
public final class ConsolidatingSettings {
    final long initialPartial;
    final long maxPartial;
    final double memoryThreshold;
    final long maxBytesInFlight;
    final int fileBuffer;
    final Modes.Merge merge;
    final boolean shrink;
    final Modes.Merger merger;
    final int mergerThreads;
    final Modes.Compression compression;
    final Modes.MemoryBound memoryBound;
    final Modes.RecordBuffer recordBuffer;
    final boolean checksum;
    final PartialSizing sizing;
    final boolean skipMerge;

    /**
     * @param sizing how partials grow: the design of the strategy (PR-13724 doubles, PR-14090 predicts)
     * @param skipMerge whether the commit registers a segment catalog instead of writing the data file
     */
    public ConsolidatingSettings(WriterConfig config, OptionValues options, StrategyOption<Long> initialPartial,
                                 PartialSizing sizing, boolean skipMerge) {
        this.initialPartial = options.get(initialPartial);
        this.maxPartial = options.get(ConsolidatingOptions.MAX_PARTIAL);
        this.memoryThreshold = options.get(ConsolidatingOptions.MEMORY_THRESHOLD);
        this.maxBytesInFlight = options.get(ConsolidatingOptions.MAX_BYTES_IN_FLIGHT);
        this.fileBuffer = Math.toIntExact(options.get(ConsolidatingOptions.FILE_BUFFER));
        this.merge = options.get(ConsolidatingOptions.MERGE);
        this.shrink = options.get(ConsolidatingOptions.SHRINK);
        this.merger = options.get(ConsolidatingOptions.MERGER);
        int mergers = options.get(ConsolidatingOptions.MERGER_THREADS);
        this.mergerThreads = mergers == 0 ? config.threads : mergers;
        this.compression = options.get(ConsolidatingOptions.COMPRESSION);
        this.memoryBound = options.get(ConsolidatingOptions.MEMORY_BOUND);
        this.recordBuffer = options.get(ConsolidatingOptions.RECORD_BUFFER);
        this.checksum = options.get(ConsolidatingOptions.CHECKSUM);
        this.sizing = sizing;
        this.skipMerge = skipMerge;
    }
}
