package dev.sluice.spi.memory;

/** Told of every allocation and release of a {@link HostAllocator}'s child, as its buffers come and go. */
public interface AllocationListener {
    /** {@code size} bytes were allocated. */
    void onAllocation(long size);

    /** {@code size} bytes were freed. */
    void onRelease(long size);
}
