package dev.sluice.core.partition;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Assigns each row of a batch to a reduce partition. Instances may carry state across the batches of one map task
 * (round robin does), so a map task uses a fresh one and feeds it its batches in order.
 */
public interface Partitioner {
    int numPartitions();

    /** Writes the partition of row {@code i} of {@code batch} into {@code out[i]}. */
    void assign(VectorSchemaRoot batch, int[] out);
}
