package dev.sluice.strategy;

import dev.sluice.core.strategy.Presets;
import dev.sluice.core.strategy.StrategySpec;
import dev.sluice.strategy.consolidating.AsyncWriterFactory;
import dev.sluice.strategy.consolidating.BufferedWriterFactory;
import dev.sluice.strategy.ideal.IdealWriterFactory;
import dev.sluice.strategy.perbatch.BypassWriterFactory;
import dev.sluice.strategy.perbatch.PerBatchWriterFactory;
import dev.sluice.strategy.sort.SortWriterFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The strategy specs tests run. */
public final class Strategies {
    private Strategies() {}

    public static StrategySpec spec(String text) {
        return StrategySpec.parse("strategy", text);
    }

    /** {@code spec} with more options. */
    public static StrategySpec with(StrategySpec spec, String... options) {
        return spec(spec.text() + ":" + String.join(":", options));
    }

    /**
     * {@code spec} with small file buffers and a small in-flight quota, where it has such options, so that files see
     * many writes and task threads wait.
     */
    public static StrategySpec small(StrategySpec spec) {
        List<String> options = new ArrayList<>();
        for (String name : List.of("fileBuffer=4k", "maxBytesInFlight=64k")) {
            String key = name.substring(0, name.indexOf('='));
            if (spec.factory().options().all().stream().anyMatch(o -> o.name().equals(key))) {
                options.add(name);
            }
        }
        return options.isEmpty() ? spec : with(spec, options.toArray(new String[0]));
    }

    /** Every strategy at its defaults (upstream's), the presets, and the {@code ideal} reference. */
    public static Stream<StrategySpec> defaults() {
        return Stream.of(StrategySpec.of(new PerBatchWriterFactory()), StrategySpec.of(new BufferedWriterFactory()),
                StrategySpec.of(new AsyncWriterFactory()),
                StrategySpec.of(new BypassWriterFactory()), StrategySpec.of(new SortWriterFactory()), spec(Presets.CONSOLIDATED_BEST), spec(Presets.UPSTREAM_HEAD),
                StrategySpec.of(new IdealWriterFactory()));
    }

    /**
     * Every option value that changes a code path, at least once, with partials small enough (64 KiB) that a memory
     * limit of a few hundred KiB sends them to file: what the fault, leak, interrupt and concurrency tests run. The
     * specs that need a memory limit (skip-merge, the exact bound) need the config to have one.
     */
    public static Stream<StrategySpec> codePaths() {
        return Stream.of(
                "per-batch",
                "per-batch:mergeCopy=stream:checksum=false",
                "bypass",
                "bypass:mergeCopy=stream:checksum=false",
                "sort",
                "sort:pageSize=64k:initialBuffer=4",
                "sort:pageSize=64k:initialBuffer=4:mergeCopy=stream:checksum=false:diskWriteBuffer=1k",
                "buffered:initialPartial=64k",
                "buffered:initialPartial=64k:merger=cooperative",
                "buffered:initialPartial=64k:memoryBound=partials-only",
                "buffered:initialPartial=64k:compression=pool:recordBuffer=direct:merger=cooperative",
                "buffered:initialPartial=64k:merge=gather:shrink=true:checksum=true",
                "buffered:initialPartial=64k:memoryBound=exact:merger=cooperative",
                "buffered:partial=chunked:chunk=64k:merger=cooperative",
                "buffered:partial=chunked:chunk=64k:pool=true:recordBuffer=direct:merge=gather:merger=cooperative",
                "buffered:initialPartial=64k:pool=true:memoryBound=exact:recordBuffer=direct:merger=cooperative",
                "buffered:partial=records:recordBuffer=direct",
                "buffered:partial=records:pool=true:recordBuffer=direct:memoryBound=exact:merge=gather"
                        + ":merger=cooperative",
                "async:initialPartial=64k",
                "async:initialPartial=64k:skipMerge=true",
                "async:initialPartial=64k:skipMerge=true:memoryBound=exact",
                "async:partial=chunked:chunk=64k:pool=true:skipMerge=true:merger=cooperative",
                "async:partial=records:recordBuffer=direct:skipMerge=true")
                .map(Strategies::spec);
    }
}
