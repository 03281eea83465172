package dev.sluice.strategy;

import dev.sluice.testkit.ShuffleWriterContract;

/** The {@code ideal} reference holds to the kit's contract; it has no flow control, so it refuses a memory limit. */
class IdealContractTest extends ShuffleWriterContract {
    @Override
    protected String strategy() {
        return "ideal";
    }

    @Override
    protected MemoryLimit memoryLimit(String variant) {
        return MemoryLimit.REFUSED;
    }
}
