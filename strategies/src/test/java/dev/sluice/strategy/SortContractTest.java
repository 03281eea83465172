package dev.sluice.strategy;

/** sort's code paths hold to the kit's contract. */
class SortContractTest extends BuiltInContract {
    SortContractTest() {
        super("sort");
    }
}
