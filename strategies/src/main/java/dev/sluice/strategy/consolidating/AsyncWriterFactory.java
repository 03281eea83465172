package dev.sluice.strategy.consolidating;

import dev.sluice.spi.Bytes;
import dev.sluice.spi.option.StrategyOption;

/**
 * {@code async}: spark-rapids PR-14090 ("V2 phase 2", on top of PR-13724), as at its commit c4d50b3624: partials
 * start at 32 MiB and grow to a prediction from the partitions completed so far; by default the commit merges as
 * PR-13724's does ({@code spark.rapids.shuffle.multithreaded.skipMerge=false}). With {@code skipMerge=true} the commit
 * registers the partials' segments in a catalog and writes nothing; as upstream, only under a host memory limit
 * (without one it warns and merges).
 */
public final class AsyncWriterFactory extends ConsolidatingFactory {
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

    public AsyncWriterFactory() {
        super(new Design(NAME, "buffered's pipeline with predictive partial sizing (32 MiB, then average partition x "
                + "partitions x 1.2); skipMerge=true serves readers from a segment catalog and writes nothing "
                + "(spark-rapids PR-14090)",
                "spark-rapids PR-14090 @ " + ConsolidatingOptions.PR_14090
                        + " (RapidsLocalDiskShuffleMapOutputWriter.capacityHintProvider, MultithreadedShuffleBufferCatalog)",
                INITIAL_PARTIAL, config -> PartialSizing.predictive(config.partitions), SKIP_MERGE));
    }
}
