package dev.sluice.spi;


/**
 * What a map task hands its shuffle writer: one batch's rows of one partition, as a {@link Payload} that knows how to
 * write its serialized, compressed bytes. The payload's contents belong to the input that made it; a writer reads
 * them and never frees them.
 */
@WriterGiven
public final class ShuffleRecord {
    private final int partitionId;
    private final Payload payload;
    private final InputBatch inputBatch;

    /** A record that is its own input batch: its host memory is its payload's {@link Payload#inputBytes}. */
    public ShuffleRecord(int partitionId, Payload payload) {
        this(partitionId, payload, null);
    }

    /**
     * A record cut from {@code inputBatch}, whose host copy the batch's records share (null: the record is its own
     * batch).
     */
    public ShuffleRecord(int partitionId, Payload payload, InputBatch inputBatch) {
        if (partitionId < 0) {
            throw new IllegalArgumentException("partitionId must be >= 0, not " + partitionId);
        }
        this.partitionId = partitionId;
        this.payload = payload;
        this.inputBatch = inputBatch != null ? inputBatch : new InputBatch(payload.inputBytes());
    }

    public int partitionId() {
        return partitionId;
    }

    public Payload payload() {
        return payload;
    }

    public long rows() {
        return payload.rows();
    }

    /** The input batch whose host copy holds this record's rows until it is serialized. */
    public InputBatch inputBatch() {
        return inputBatch;
    }

    /** What the record costs in flight before serialization ({@link Payload#inputBytes}). */
    public long bytes() {
        return payload.inputBytes();
    }
}
