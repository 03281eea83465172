package dev.sluice.strategy;

/** per-batch's code paths hold to the kit's contract. */
class PerBatchContractTest extends BuiltInContract {
    PerBatchContractTest() {
        super("per-batch");
    }
}
