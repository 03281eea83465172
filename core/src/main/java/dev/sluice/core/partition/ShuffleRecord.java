package dev.sluice.core.partition;

import dev.sluice.core.serde.Payload;

/**
 * What a map task hands its shuffle writer: one batch's rows of one partition, as a {@link Payload} that knows how to
 * write its serialized, compressed bytes. The payload's contents belong to the input that made it; a writer reads
 * them and never frees them.
 */
public final class ShuffleRecord {
    private final int partitionId;
    private final Payload payload;

    public ShuffleRecord(int partitionId, Payload payload) {
        if (partitionId < 0) {
            throw new IllegalArgumentException("partitionId must be >= 0, not " + partitionId);
        }
        this.partitionId = partitionId;
        this.payload = payload;
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

    /** What the record costs in flight before serialization ({@link Payload#inputBytes}). */
    public long bytes() {
        return payload.inputBytes();
    }
}
