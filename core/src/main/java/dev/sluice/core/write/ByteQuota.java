package dev.sluice.core.write;

import java.io.IOException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Bounds the bytes in flight between a map task's thread and its background workers (spark-rapids'
 * {@code maxBytesInFlight}). A record larger than the whole quota takes all of it, so that it can still pass alone.
 * Waits are interruptible, and {@link #fail} wakes every waiter with the writer's failure: a background error never
 * leaves the task thread parked (upstream's limiter hang, spark-rapids #15611).
 */
public final class ByteQuota {
    private final long limit;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition released = lock.newCondition();
    private long used;
    private Throwable failure;

    public ByteQuota(long limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("quota must be >= 1 byte, got " + limit);
        }
        this.limit = limit;
    }

    /**
     * Takes {@code bytes} of quota (at most the whole quota), waiting until it is free. Returns the amount taken,
     * which the caller gives back with {@link #release}.
     *
     * @throws IOException if the quota was failed, with the failure as cause
     */
    public long acquire(long bytes) throws IOException, InterruptedException {
        long amount = Math.min(Math.max(bytes, 0), limit);
        lock.lockInterruptibly();
        try {
            while (failure == null && used + amount > limit) {
                released.await();
            }
            if (failure != null) {
                throw new IOException("shuffle writer failed", failure);
            }
            used += amount;
            return amount;
        } finally {
            lock.unlock();
        }
    }

    public void release(long bytes) {
        lock.lock();
        try {
            used -= bytes;
            if (used < 0) {
                throw new IllegalStateException("released " + bytes + " bytes more than acquired");
            }
            released.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Makes every current and future {@link #acquire} throw with {@code cause}. */
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
}
