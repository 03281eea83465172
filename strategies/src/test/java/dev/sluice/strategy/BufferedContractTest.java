package dev.sluice.strategy;

/** buffered's code paths hold to the kit's contract. */
class BufferedContractTest extends BuiltInContract {
    BufferedContractTest() {
        super("buffered");
    }
}
