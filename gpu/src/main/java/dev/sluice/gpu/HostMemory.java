package dev.sluice.gpu;

import ai.rapids.cudf.HostMemoryAllocator;
import ai.rapids.cudf.HostMemoryBuffer;
import ai.rapids.cudf.MemoryBuffer;
import ai.rapids.cudf.PinnedMemoryPool;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where the host copies of a GPU map task's columns live, and a count of what was really given: pinned memory comes
 * from cuDF's {@link PinnedMemoryPool} (sized by {@code pinnedPool}, the seed's 8G) and falls back to pageable memory
 * when the pool is exhausted or was never made, as spark-rapids' {@code HostAlloc} does, so the count says how much of
 * a "pinned" run was pinned. Pageable memory is {@code HostMemoryBuffer.allocate(n, false)}. Every buffer handed out
 * is watched until its last reference closes, so a test can tell that none is left.
 */
public final class HostMemory {
    private final boolean pinned;
    private final AtomicLong buffers = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLong pinnedBuffers = new AtomicLong();
    private final AtomicLong pinnedBytes = new AtomicLong();
    private final AtomicLong open = new AtomicLong();
    private final AtomicLong openBytes = new AtomicLong();

    private HostMemory(boolean pinned) {
        this.pinned = pinned;
    }

    /** Pinned first ({@link PinnedMemoryPool#tryAllocate}), pageable when the pool has no room. */
    public static HostMemory pinned() {
        return new HostMemory(true);
    }

    public static HostMemory pageable() {
        return new HostMemory(false);
    }

    public static HostMemory of(boolean pinned) {
        return pinned ? pinned() : pageable();
    }

    public boolean prefersPinned() {
        return pinned;
    }

    /**
     * cuDF's view of this memory, for {@code copyToHostAsync} and host columns. A view rather than this class itself,
     * so that this class loads without cudf-java on the class path (the GPU benchmark's states are made by reflection).
     */
    public HostMemoryAllocator allocator() {
        return new HostMemoryAllocator() {
            @Override
            public HostMemoryBuffer allocate(long size, boolean preferPinned) {
                return HostMemory.this.allocate(size);
            }

            @Override
            public HostMemoryBuffer allocate(long size) {
                return HostMemory.this.allocate(size);
            }
        };
    }

    HostMemoryBuffer allocate(long size) {
        HostMemoryBuffer buffer = pinned ? PinnedMemoryPool.tryAllocate(size) : null;
        boolean wasPinned = buffer != null;
        if (buffer == null) {
            buffer = HostMemoryBuffer.allocate(size, false);
        }
        buffers.incrementAndGet();
        bytes.addAndGet(size);
        if (wasPinned) {
            pinnedBuffers.incrementAndGet();
            pinnedBytes.addAndGet(size);
        }
        open.incrementAndGet();
        openBytes.addAndGet(size);
        // Chained, in case cuDF (or a pool) watches the buffer too.
        MemoryBuffer.EventHandler[] previous = new MemoryBuffer.EventHandler[1];
        previous[0] = buffer.setEventHandler(refCount -> {
            if (refCount == 0) {
                open.decrementAndGet();
                openBytes.addAndGet(-size);
            }
            if (previous[0] != null) {
                previous[0].onClosed(refCount);
            }
        });
        return buffer;
    }

    /** What was handed out so far. */
    public Usage usage() {
        return new Usage(buffers.get(), bytes.get(), pinnedBuffers.get(), pinnedBytes.get());
    }

    /** Buffers handed out and not yet closed. */
    public long openBuffers() {
        return open.get();
    }

    public long openBytes() {
        return openBytes.get();
    }

    @Override
    public String toString() {
        return pinned ? "pinned" : "pageable";
    }

    /** Buffers and bytes handed out, and how many of them were pinned. */
    public static final class Usage {
        public final long buffers;
        public final long bytes;
        public final long pinnedBuffers;
        public final long pinnedBytes;

        Usage(long buffers, long bytes, long pinnedBuffers, long pinnedBytes) {
            this.buffers = buffers;
            this.bytes = bytes;
            this.pinnedBuffers = pinnedBuffers;
            this.pinnedBytes = pinnedBytes;
        }

        /** What was handed out since {@code before}. */
        public Usage since(Usage before) {
            return new Usage(buffers - before.buffers, bytes - before.bytes, pinnedBuffers - before.pinnedBuffers,
                    pinnedBytes - before.pinnedBytes);
        }

        public long pageableBuffers() {
            return buffers - pinnedBuffers;
        }

        @Override
        public String toString() {
            return buffers + " buffers (" + bytes + " B), " + pinnedBuffers + " pinned (" + pinnedBytes + " B)";
        }
    }
}
