package dev.sluice.core.memory;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;

/**
 * Bytes a writer holds in memory beyond its input: file buffers, compressed records, partial outputs. Tracks the
 * current use and its peak; {@link #tryReserve} refuses to go over the limit, {@link #reserve} records use that a
 * strategy cannot refuse (a fixed-size buffer it needs to make progress).
 */
public final class MemoryBudget {
    private final long limit;
    private final AtomicLong used = new AtomicLong();
    private final LongAccumulator peak = new LongAccumulator(Math::max, 0);

    public MemoryBudget(long limit) {
        if (limit <= 0) {
            throw new IllegalArgumentException("memory limit must be > 0, got " + limit);
        }
        this.limit = limit;
    }

    public long limit() {
        return limit;
    }

    /** Records {@code bytes} as held, whatever the limit. */
    public void reserve(long bytes) {
        peak.accumulate(used.addAndGet(bytes));
    }

    /** Records {@code bytes} as held if that keeps use within the limit; returns whether it did. */
    public boolean tryReserve(long bytes) {
        while (true) {
            long now = used.get();
            if (now + bytes > limit) {
                return false;
            }
            if (used.compareAndSet(now, now + bytes)) {
                peak.accumulate(now + bytes);
                return true;
            }
        }
    }

    public void release(long bytes) {
        long after = used.addAndGet(-bytes);
        if (after < 0) {
            throw new IllegalStateException("released " + bytes + " bytes more than reserved (now " + after + ")");
        }
    }

    public long used() {
        return used.get();
    }

    public long peak() {
        return peak.get();
    }
}
