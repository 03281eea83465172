package dev.sluice.strategy.consolidating;

/**
 * One record between the task thread and its batch's merger: queued in arrival order, compressed by a writer thread,
 * appended to the partial by the merger. It holds two things until the merger is done with it: {@code quota}, its
 * share of the in-flight limit (its uncompressed size, trimmed to its compressed size once compressed, as upstream's
 * limiter is), and {@code reserved}, the writer memory charged for it.
 */
final class PendingRecord {
    final int partitionId;
    volatile long quota;
    volatile long reserved;
    private volatile SerializedRecord serialized;
    private volatile boolean ready;

    PendingRecord(int partitionId, long quota, long reserved) {
        this.partitionId = partitionId;
        this.quota = quota;
        this.reserved = reserved;
    }

    /** Called once by the compression task, success or not; null means the record was dropped. */
    void complete(SerializedRecord bytes) {
        serialized = bytes;
        ready = true;
    }

    boolean ready() {
        return ready;
    }

    SerializedRecord serialized() {
        return serialized;
    }
}
