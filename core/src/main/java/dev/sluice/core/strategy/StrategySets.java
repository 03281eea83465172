package dev.sluice.core.strategy;

import java.util.List;

/**
 * The sets of strategies the benchmark run's presets compare, in the order its reports list them: the plan takes
 * its strategies from here and the report its order, so that neither depends on the other.
 */
public final class StrategySets {
    /** The seed's strategies, the baseline first: the order the reports list strategies in. */
    public static final List<String> SEED = List.of("per-batch", "buffered", "async", "async:skipMerge=true");
    /**
     * The paired presets' strategies: the seed's and {@code ideal}, the pipeline's limit, so that every strategy's
     * ratio to the limit is measured in the same rounds as its ratio to per-batch.
     */
    public static final List<String> PAIRED = List.of("per-batch", "buffered", "async", "async:skipMerge=true",
            "ideal");
    /**
     * The tuning preset's ablation (docs/tuning.md): the reference, per-batch, buffered at upstream's defaults, buffered
     * with each of Sluice's improvements alone, and the best combination.
     */
    public static final List<String> TUNING = List.of("ideal", "per-batch", "buffered", "buffered:merge=gather",
            "buffered:pool=true", "buffered:partial=chunked", "buffered:recordBuffer=direct",
            "buffered:partial=records:recordBuffer=direct", Presets.CONSOLIDATED_BEST);

    private StrategySets() {}
}
