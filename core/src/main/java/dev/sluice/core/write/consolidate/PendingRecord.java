package dev.sluice.core.write.consolidate;

import io.netty.buffer.ByteBuf;

/**
 * One record between the task thread and its batch's merger: queued in arrival order, compressed by the writer pool,
 * appended to the partial by the merger. {@code reserved} is the writer memory it holds: first the upper bound of
 * compressing it, then, once compressed, its buffer's size (the rest is given back).
 */
final class PendingRecord {
    final int partitionId;
    private volatile ByteBuf compressed;
    private volatile boolean ready;
    volatile long reserved;

    PendingRecord(int partitionId, long reserved) {
        this.partitionId = partitionId;
        this.reserved = reserved;
    }

    /** Called by the compression task, success or not; a null buffer means the record was dropped. */
    void complete(ByteBuf buffer) {
        compressed = buffer;
        ready = true;
    }

    boolean ready() {
        return ready;
    }

    ByteBuf compressed() {
        return compressed;
    }
}
