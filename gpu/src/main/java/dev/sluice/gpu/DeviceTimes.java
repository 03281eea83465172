package dev.sluice.gpu;

/** What the device side of a GPU map task took: partitioning, and the copy of partitioned columns to host. */
public final class DeviceTimes {
    private long partitionNanos;
    private long copyNanos;
    private long copyBytes;
    private int batches;

    void add(long partition, long copy, long bytes) {
        partitionNanos += partition;
        copyNanos += copy;
        copyBytes += bytes;
        batches++;
    }

    public long partitionNanos() {
        return partitionNanos;
    }

    /** From the first {@code copyToHostAsync} to the stream's sync, summed over batches. */
    public long copyNanos() {
        return copyNanos;
    }

    /** Device bytes of the columns copied (values, validity, offsets). */
    public long copyBytes() {
        return copyBytes;
    }

    public int batches() {
        return batches;
    }

    /** Device-to-host bandwidth in GB/s (10^9 bytes a second); NaN before any copy. */
    public double copyGigabytesPerSecond() {
        return copyNanos == 0 ? Double.NaN : copyBytes / (double) copyNanos;
    }

    @Override
    public String toString() {
        return String.format("%d batches: partition %.3f ms, copy %d B in %.3f ms (%.2f GB/s)", batches,
                partitionNanos / 1e6, copyBytes, copyNanos / 1e6, copyGigabytesPerSecond());
    }
}
