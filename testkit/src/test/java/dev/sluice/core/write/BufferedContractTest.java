package dev.sluice.core.write;

/** buffered's code paths hold to the kit's contract. */
class BufferedContractTest extends BuiltInContract {
    BufferedContractTest() {
        super("buffered");
    }
}
