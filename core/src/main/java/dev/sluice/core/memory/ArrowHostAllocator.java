package dev.sluice.core.memory;

import dev.sluice.spi.memory.AllocationListener;
import dev.sluice.spi.memory.HostAllocator;
import dev.sluice.spi.memory.HostBuffer;
import java.nio.ByteBuffer;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The writer SPI's host memory over an Arrow allocator, which every entry point gives an executor: Arrow's Unsafe
 * allocation manager mallocs without zeroing, rounds requests as its chunking does, counts each child's buffers and
 * fails the close of one that leaks. Arrow-backed payloads serialize with the Arrow allocator under the scratch
 * they are handed ({@link #arrow}).
 */
public final class ArrowHostAllocator implements HostAllocator {
    private final BufferAllocator arrow;

    private ArrowHostAllocator(BufferAllocator arrow) {
        this.arrow = arrow;
    }

    /** {@code arrow} as host memory; closing the result closes {@code arrow}. */
    public static ArrowHostAllocator of(BufferAllocator arrow) {
        return new ArrowHostAllocator(arrow);
    }

    /**
     * The Arrow allocator under {@code memory}: what Sluice's payloads serialize with. Scratch always comes from the
     * executor's allocator, which Sluice made; anything else is refused.
     */
    public static BufferAllocator arrow(HostAllocator memory) {
        if (memory instanceof ArrowHostAllocator) {
            return ((ArrowHostAllocator) memory).arrow;
        }
        throw new IllegalArgumentException("scratch memory of another kind (" + memory.getClass().getName() + "): a "
                + "payload serializes with memory of the allocator its executor was given, or a child of it");
    }

    @Override
    public HostBuffer buffer(long bytes) {
        return new Buffer(arrow.buffer(bytes));
    }

    @Override
    public long roundedSize(long bytes) {
        return arrow.getRoundingPolicy().getRoundedSize(bytes);
    }

    @Override
    public HostAllocator child(String name) {
        return new ArrowHostAllocator(arrow.newChildAllocator(name, 0, Long.MAX_VALUE));
    }

    @Override
    public HostAllocator child(String name, AllocationListener listener) {
        return new ArrowHostAllocator(arrow.newChildAllocator(name, new org.apache.arrow.memory.AllocationListener() {
            @Override
            public void onAllocation(long size) {
                listener.onAllocation(size);
            }

            @Override
            public void onRelease(long size) {
                listener.onRelease(size);
            }
        }, 0, Long.MAX_VALUE));
    }

    @Override
    public long allocatedBytes() {
        return arrow.getAllocatedMemory();
    }

    @Override
    public void close() {
        arrow.close();
    }

    @Override
    public String toString() {
        return arrow.getName();
    }

    /** An Arrow buffer as a host buffer. */
    private static final class Buffer implements HostBuffer {
        private final ArrowBuf buf;

        Buffer(ArrowBuf buf) {
            this.buf = buf;
        }

        @Override
        public long capacity() {
            return buf.capacity();
        }

        @Override
        public ByteBuffer nioBuffer(long index, int length) {
            return buf.nioBuffer(index, length);
        }

        @Override
        public void setBytes(long index, ByteBuffer src) {
            buf.setBytes(index, src);
        }

        @Override
        public void setBytes(long index, HostBuffer src, long srcIndex, long length) {
            buf.setBytes(index, ((Buffer) src).buf, srcIndex, length);
        }

        @Override
        public void getBytes(long index, ByteBuffer dst) {
            buf.getBytes(index, dst);
        }

        @Override
        public void close() {
            buf.close();
        }
    }
}
