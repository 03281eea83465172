package dev.sluice.strategy;

/** async's code paths hold to the kit's contract. */
class AsyncContractTest extends BuiltInContract {
    AsyncContractTest() {
        super("async");
    }
}
