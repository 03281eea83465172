package dev.sluice.spi;

/**
 * The host memory one input batch occupies while its records are written, shared by the records cut from it.
 * Upstream copies each GPU batch to host memory before it hands the batch's slices to the writer
 * ({@code GpuPartitioning.sliceInternalOnCpuAndClose}, allocated through {@code HostAlloc}, pinned when the pool has
 * room), and frees that copy once every slice of it has been serialized; meanwhile {@code HostAlloc} counts it against
 * the executor's host memory limit. A writer that models that count charges a batch once, when its first record
 * arrives, and gives it back once every record of it was serialized and a later batch began (or the map task ended).
 * Identity matters: the records of one batch share one instance.
 */
@WriterGiven
public final class InputBatch {
    private final long hostBytes;

    public InputBatch(long hostBytes) {
        if (hostBytes < 0) {
            throw new IllegalArgumentException("hostBytes must be >= 0, not " + hostBytes);
        }
        this.hostBytes = hostBytes;
    }

    /** Bytes of the batch's host copy: every record's rows and whatever else the copy holds. */
    public long hostBytes() {
        return hostBytes;
    }

    @Override
    public String toString() {
        return "input batch of " + hostBytes + " host bytes";
    }
}
