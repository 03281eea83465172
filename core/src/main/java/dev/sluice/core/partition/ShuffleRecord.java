package dev.sluice.core.partition;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * What a map task hands its shuffle writer: the rows of one batch that belong to one partition. The slice belongs to
 * the input that made it; a writer reads it and never closes it.
 */
public final class ShuffleRecord {
    private final int partitionId;
    private final VectorSchemaRoot slice;
    private final long bytes;

    public ShuffleRecord(int partitionId, VectorSchemaRoot slice) {
        this.partitionId = partitionId;
        this.slice = slice;
        long b = 0;
        for (FieldVector v : slice.getFieldVectors()) {
            b += v.getBufferSize();
        }
        this.bytes = b;
    }

    public int partitionId() {
        return partitionId;
    }

    public VectorSchemaRoot slice() {
        return slice;
    }

    public int rows() {
        return slice.getRowCount();
    }

    /** Arrow buffer bytes of the slice: what the record costs in flight before serialization. */
    public long bytes() {
        return bytes;
    }
}
