package dev.sluice.strategy;

/** bypass's code paths hold to the kit's contract. */
class BypassContractTest extends BuiltInContract {
    BypassContractTest() {
        super("bypass");
    }
}
