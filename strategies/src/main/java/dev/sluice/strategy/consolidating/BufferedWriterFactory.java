package dev.sluice.strategy.consolidating;

import dev.sluice.spi.Bytes;
import dev.sluice.spi.option.StrategyOption;

/**
 * {@code buffered}: spark-rapids PR-13724 ("V2 phase 1": the writer uses as much memory as allowed, and writes in a
 * pipeline), as at its commit e465ec3851: partial buffers that start at 128 MiB and double, and a commit that writes
 * one batch's partial in one call or merges several.
 */
public final class BufferedWriterFactory extends ConsolidatingFactory {
    public static final String NAME = "buffered";

    static final StrategyOption<Long> INITIAL_PARTIAL = ConsolidatingOptions.initialPartial(128 * Bytes.MiB,
            ConsolidatingOptions.PR_13724);

    public BufferedWriterFactory() {
        super(new Design(NAME, "records compressed by writer slots into per-batch partial buffers (128 MiB, "
                + "doubling), one write of a single batch at commit, a merge of several (spark-rapids PR-13724)",
                "spark-rapids PR-13724 @ " + ConsolidatingOptions.PR_13724 + " (RapidsShuffleInternalManagerBase, "
                        + "SpillablePartialFileHandle, RapidsLocalDiskShuffleMapOutputWriter)",
                INITIAL_PARTIAL, config -> PartialSizing.DOUBLING, null));
    }
}
