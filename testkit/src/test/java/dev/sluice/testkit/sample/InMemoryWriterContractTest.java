package dev.sluice.testkit.sample;

import dev.sluice.testkit.ShuffleWriterContract;

/**
 * sample-in-memory holds to Sluice's contract (docs/writing-a-strategy.md). It keeps every record on the heap
 * whatever the limit, so a memory limit is advisory to it.
 */
class InMemoryWriterContractTest extends ShuffleWriterContract {
    @Override
    protected String strategy() {
        return "sample-in-memory";
    }

    @Override
    protected MemoryLimit memoryLimit(String variant) {
        return MemoryLimit.ADVISORY;
    }
}
