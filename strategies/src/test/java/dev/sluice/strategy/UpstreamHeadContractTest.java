package dev.sluice.strategy;

import dev.sluice.core.strategy.Presets;
import dev.sluice.testkit.ShuffleWriterContract;

/** The upstream-head preset holds to the kit's contract; it keeps upstream's threshold, so a limit is advisory. */
class UpstreamHeadContractTest extends ShuffleWriterContract {
    @Override
    protected String strategy() {
        return Presets.UPSTREAM_HEAD;
    }

    @Override
    protected MemoryLimit memoryLimit(String variant) {
        return MemoryLimit.ADVISORY;
    }
}
