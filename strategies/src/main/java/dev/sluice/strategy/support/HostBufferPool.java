package dev.sluice.strategy.support;

import dev.sluice.spi.memory.HostAllocator;
import dev.sluice.spi.memory.HostBuffer;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * An executor's host buffers, reused: a buffer given back is kept, as it is (never zeroed), and the next request for
 * the same capacity takes it, so that a steady stream of map tasks touches no fresh page. Upstream mallocs each
 * partial ({@code HostMemoryBuffer.allocate}) and frees it when its task ends; glibc serves such sizes with fresh
 * {@code mmap}s, so every task pays the kernel's page faults again.
 *
 * <p>The pool owns its idle buffers and frees them at {@link #close}; a buffer given back after that is freed at once.
 * With a memory limit, idle buffers count as memory: before a fresh allocation the pool frees idle ones until what is
 * in use plus what is idle fits the limit ({@code inUse} says what is in use, the new buffer's charge included).
 */
public final class HostBufferPool implements HostBuffers, AutoCloseable {
    private final HostAllocator allocator;
    private final long limit;
    private final LongSupplier inUse;
    private final Map<Long, ArrayDeque<HostBuffer>> idle = new HashMap<>();
    private long idleBytes;
    private long taken;
    private long reused;
    private long freshBytes;
    private long faultedInBytes;
    private boolean closed;

    /**
     * @param allocator where fresh buffers come from (Arrow's allocator mallocs without zeroing)
     * @param limit the executor's memory limit, or {@code Long.MAX_VALUE}
     * @param inUse the memory charged to the limit now, without the pool's idle buffers
     */
    public HostBufferPool(HostAllocator allocator, long limit, LongSupplier inUse) {
        this.allocator = allocator;
        this.limit = limit;
        this.inUse = inUse;
    }

    /**
     * The capacity a buffer of {@code bytes} really has: Arrow's allocator rounds requests below its chunk size
     * (16 MiB) up to a power of two. Callers charge this, and the pool files buffers under it.
     */
    @Override
    public long capacityFor(long bytes) {
        return allocator.roundedSize(bytes);
    }

    /** A buffer of {@link #capacityFor}{@code (bytes)}, idle or fresh; its contents are whatever they were. */
    @Override
    public HostBuffer take(long bytes) {
        return take(bytes, false);
    }

    /**
     * As {@link #take}, but a fresh buffer comes with every page touched: for a caller that fills buffers in part and
     * gives them back, so that whoever fills one further later faults in nothing. An idle buffer was faulted in when it
     * was first taken this way, or by {@link #ensureIdle}.
     */
    public HostBuffer takeFaultedIn(long bytes) {
        return take(bytes, true);
    }

    private HostBuffer take(long bytes, boolean faultIn) {
        long capacity = capacityFor(bytes);
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("buffer pool is closed");
            }
            taken++;
            ArrayDeque<HostBuffer> free = idle.get(capacity);
            if (free != null && !free.isEmpty()) {
                HostBuffer buffer = free.pop();
                idleBytes -= capacity;
                reused++;
                return buffer;
            }
            trimLocked(limit - inUse.getAsLong());
            freshBytes += capacity;
        }
        // Allocated outside the lock: malloc of a large buffer is a system call, other takers need not wait for it.
        HostBuffer buffer = allocator.buffer(capacity);
        if (faultIn) {
            faultIn(buffer);
        }
        return buffer;
    }

    /**
     * Makes sure at least {@code count} buffers of {@code bytes} lie idle, allocating the missing ones and touching
     * every page of them, so that whoever takes them next faults in nothing: a pool made before the wave that needs
     * it. A no-op in a steady state, where the waves return what they took.
     */
    public void ensureIdle(long bytes, int count) {
        long capacity = capacityFor(bytes);
        int missing;
        synchronized (this) {
            if (closed) {
                return;
            }
            ArrayDeque<HostBuffer> free = idle.get(capacity);
            missing = count - (free == null ? 0 : free.size());
            freshBytes += Math.max(0, missing) * capacity;
        }
        for (int i = 0; i < missing; i++) {
            HostBuffer buffer = allocator.buffer(capacity);
            faultIn(buffer);
            give(buffer);
        }
    }

    /** Touches a byte of every page of a fresh buffer, so that the kernel maps them all now. */
    private void faultIn(HostBuffer buffer) {
        ByteBuffer pages = buffer.nioBuffer(0, Math.toIntExact(buffer.capacity()));
        for (int at = 0; at < pages.capacity(); at += PAGE) {
            pages.put(at, (byte) 0);
        }
        synchronized (this) {
            faultedInBytes += buffer.capacity();
        }
    }

    /** Bytes of fresh buffers whose every page was touched before anyone used them (a test's). */
    public synchronized long faultedInBytes() {
        return faultedInBytes;
    }

    /** The smallest page there is: touching one byte in each faults a buffer in. */
    private static final int PAGE = 4096;

    /** Takes {@code buffer} back (the caller no longer touches it); freed at once if the pool is closed. */
    @Override
    public void give(HostBuffer buffer) {
        synchronized (this) {
            if (!closed) {
                idle.computeIfAbsent(buffer.capacity(), c -> new ArrayDeque<>()).push(buffer);
                idleBytes += buffer.capacity();
                return;
            }
        }
        buffer.close();
    }

    /** Frees idle buffers, the largest first, until at most {@code room} bytes are idle. */
    private void trimLocked(long room) {
        while (idleBytes > Math.max(0, room)) {
            long largest = 0;
            for (Map.Entry<Long, ArrayDeque<HostBuffer>> e : idle.entrySet()) {
                if (!e.getValue().isEmpty()) {
                    largest = Math.max(largest, e.getKey());
                }
            }
            HostBuffer victim = idle.get(largest).pop();
            idleBytes -= largest;
            victim.close();
        }
    }

    /** Bytes held idle now. */
    public synchronized long idleBytes() {
        return idleBytes;
    }

    /** Buffers handed out, and how many of those were reused rather than fresh. */
    public synchronized long taken() {
        return taken;
    }

    public synchronized long reused() {
        return reused;
    }

    /** Bytes of fresh buffers allocated so far: after the first waves, a steady state allocates none. */
    public synchronized long freshBytes() {
        return freshBytes;
    }

    /** Frees every idle buffer; buffers still out are freed when given back. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (ArrayDeque<HostBuffer> free : idle.values()) {
            free.forEach(HostBuffer::close);
        }
        idle.clear();
        idleBytes = 0;
    }
}
