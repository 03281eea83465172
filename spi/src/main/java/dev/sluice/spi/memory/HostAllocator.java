package dev.sluice.spi.memory;

import dev.sluice.spi.WriterGiven;

/**
 * Where a strategy's off-heap host memory comes from: the executor gets one from its caller, and makes a child of it
 * for whatever it wants counted apart (a map task's writer, a pool), so that what each holds can be seen and what
 * one leaks fails when it is closed. Buffers come as they are (not zeroed), as upstream's
 * {@code HostMemoryBuffer.allocate(size, false)}; requests are rounded up as the allocator's chunking rounds them, which
 * a holder that charges a budget must charge ({@link #roundedSize}). A payload's serialization may use the memory of
 * the allocator it is handed as scratch.
 */
@WriterGiven
public interface HostAllocator extends AutoCloseable {
    /** A buffer of at least {@code bytes} ({@link #roundedSize} of them), its contents undefined. */
    HostBuffer buffer(long bytes);

    /** The capacity a buffer of {@code bytes} really has. */
    long roundedSize(long bytes);

    /** A child that counts its own buffers and must free them all before it closes. */
    HostAllocator child(String name);

    /** A child whose every allocation and release {@code listener} is told of first (a budget charges them). */
    HostAllocator child(String name, AllocationListener listener);

    /** Bytes of buffers of this allocator and its children not yet closed. */
    long allocatedBytes();

    /** Closes the allocator; fails if any of its buffers or children is still open (a leak). */
    @Override
    void close();
}
