package dev.sluice.core.memory;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Where a writer's host buffers come from and go back to: straight from the allocator and freed ({@link #malloc},
 * upstream's {@code HostMemoryBuffer.allocate(size, false)}), or an executor's {@link HostBufferPool}. Neither zeroes.
 */
public interface HostBuffers {
    /** The capacity a buffer of {@code bytes} really has, which is what its holder charges. */
    long capacityFor(long bytes);

    /** A buffer of {@link #capacityFor}{@code (bytes)}; its contents are undefined. */
    ArrowBuf take(long bytes);

    /** The holder is done with {@code buffer}. */
    void give(ArrowBuf buffer);

    /** Fresh from {@code allocator} each time, freed when given back. */
    static HostBuffers malloc(BufferAllocator allocator) {
        return new HostBuffers() {
            @Override
            public long capacityFor(long bytes) {
                return allocator.getRoundingPolicy().getRoundedSize(bytes);
            }

            @Override
            public ArrowBuf take(long bytes) {
                return allocator.buffer(bytes);
            }

            @Override
            public void give(ArrowBuf buffer) {
                buffer.close();
            }
        };
    }
}
