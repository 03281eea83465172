package dev.sluice.strategy;

import dev.sluice.core.strategy.Presets;
import dev.sluice.testkit.ShuffleWriterContract;

/** The best preset holds to the kit's contract; it keeps upstream's threshold, so a limit is advisory. */
class ConsolidatedBestContractTest extends ShuffleWriterContract {
    @Override
    protected String strategy() {
        return Presets.CONSOLIDATED_BEST;
    }

    @Override
    protected MemoryLimit memoryLimit(String variant) {
        return MemoryLimit.ADVISORY;
    }
}
