package dev.sluice.strategy.support;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Bytes a writer holds in memory beyond its input: file buffers, records in flight, compressed records, partial
 * outputs. Tracks the current use and its peak. {@link #tryReserve} never lets use pass the limit;
 * {@link #reserve} records use a strategy cannot refuse (per-batch's file buffers, which it has no limit for).
 * {@link #awaitRelease} lets a thread wait, interruptibly and for a bounded time, until memory comes back, and
 * {@link #fail} wakes every waiter with the writer's failure.
 */
public final class MemoryBudget {
    private final long limit;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition released = lock.newCondition();
    private long used;
    private long peak;
    private Throwable failure;

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
        lock.lock();
        try {
            used += bytes;
            peak = Math.max(peak, used);
        } finally {
            lock.unlock();
        }
    }

    /** Records {@code bytes} as held if that keeps use within the limit; returns whether it did. */
    public boolean tryReserve(long bytes) {
        lock.lock();
        try {
            if (used + bytes > limit) {
                return false;
            }
            used += bytes;
            peak = Math.max(peak, used);
            return true;
        } finally {
            lock.unlock();
        }
    }

    public void release(long bytes) {
        if (bytes == 0) {
            return;
        }
        lock.lock();
        try {
            used -= bytes;
            if (used < 0) {
                throw new IllegalStateException("released " + bytes + " bytes more than reserved (now " + used + ")");
            }
            released.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until some memory is released, the budget fails, or {@code timeout} passes.
     *
     * @throws IOException if the budget was failed, with the failure as cause
     */
    public void awaitRelease(long timeout, TimeUnit unit) throws IOException, InterruptedException {
        lock.lockInterruptibly();
        try {
            if (failure == null) {
                released.await(timeout, unit);
            }
            if (failure != null) {
                throw new IOException("shuffle writer failed", failure);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Throws the failure, if the budget was failed. */
    public void throwIfFailed() throws IOException {
        lock.lock();
        try {
            if (failure != null) {
                throw new IOException("shuffle writer failed", failure);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Makes every current and future {@link #awaitRelease} throw with {@code cause}. */
    public void fail(Throwable cause) {
        lock.lock();
        try {
            if (failure == null) {
                failure = cause;
            }
            released.signalAll();
        } finally {
            lock.unlock();
        }
    }

    public long used() {
        lock.lock();
        try {
            return used;
        } finally {
            lock.unlock();
        }
    }

    public long peak() {
        lock.lock();
        try {
            return peak;
        } finally {
            lock.unlock();
        }
    }
}
