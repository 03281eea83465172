package com.example.shuffle;

import dev.sluice.testkit.ShuffleWriterContract;

/** celeborn-push holds to Sluice's contract. Its push buffers are fixed per partition: a memory limit is advisory. */
class PushWriterContractTest extends ShuffleWriterContract {
    @Override
    protected String strategy() {
        return "celeborn-push";
    }

    @Override
    protected MemoryLimit memoryLimit(String variant) {
        return MemoryLimit.ADVISORY;
    }
}
