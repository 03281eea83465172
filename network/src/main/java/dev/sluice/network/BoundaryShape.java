package dev.sluice.network;

import dev.sluice.spi.InvalidParameterException;

/** The experiment's shape: partitions, rows of the input batches, rows of the batches the wire should carry. */
public final class BoundaryShape {
    public final int partitions;
    public final int inputRows;
    public final int targetRows;

    public BoundaryShape(int partitions, int inputRows, int targetRows) {
        if (partitions < 1) {
            throw new InvalidParameterException("partitions", partitions, "an integer >= 1");
        }
        if (inputRows < 1) {
            throw new InvalidParameterException("inputRows", inputRows, "an integer >= 1");
        }
        if (targetRows < 1) {
            throw new InvalidParameterException("targetRows", targetRows, "an integer >= 1");
        }
        this.partitions = partitions;
        this.inputRows = inputRows;
        this.targetRows = targetRows;
    }

    @Override
    public String toString() {
        return partitions + " partitions, input batches of " + inputRows + " rows, target " + targetRows + " rows";
    }
}
