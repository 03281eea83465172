package dev.sluice.strategy.support;

import dev.sluice.spi.memory.HostAllocator;
import dev.sluice.spi.memory.HostBuffer;

/**
 * Where a writer's host buffers come from and go back to: straight from the allocator and freed ({@link #malloc},
 * upstream's {@code HostMemoryBuffer.allocate(size, false)}), or an executor's {@link HostBufferPool}. Neither zeroes.
 */
public interface HostBuffers {
    /** The capacity a buffer of {@code bytes} really has, which is what its holder charges. */
    long capacityFor(long bytes);

    /** A buffer of {@link #capacityFor}{@code (bytes)}; its contents are undefined. */
    HostBuffer take(long bytes);

    /** The holder is done with {@code buffer}. */
    void give(HostBuffer buffer);

    /** Fresh from {@code allocator} each time, freed when given back. */
    static HostBuffers malloc(HostAllocator allocator) {
        return new HostBuffers() {
            @Override
            public long capacityFor(long bytes) {
                return allocator.roundedSize(bytes);
            }

            @Override
            public HostBuffer take(long bytes) {
                return allocator.buffer(bytes);
            }

            @Override
            public void give(HostBuffer buffer) {
                buffer.close();
            }
        };
    }
}
