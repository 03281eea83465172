package dev.sluice.spi.memory;

import dev.sluice.spi.WriterImplements;

/** Told of every allocation and release of a {@link HostAllocator}'s child, as its buffers come and go. */
@WriterImplements
public interface AllocationListener {
    /** {@code size} bytes were allocated. */
    void onAllocation(long size);

    /** {@code size} bytes were freed. */
    void onRelease(long size);
}
