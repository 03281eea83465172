package dev.sluice.strategy.support;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Bounds the bytes in flight between a map task's thread and its background workers (spark-rapids'
 * {@code maxBytesInFlight}). A record larger than the whole quota takes all of it, so that it can still pass alone.
 * Waits are interruptible and bounded, and {@link #fail} wakes every waiter with the writer's failure: a background
 * error never leaves the task thread parked (upstream's limiter hang, spark-rapids #15611; its acquire has no timeout,
 * #15631).
 */
public final class ByteQuota {
    /** A release between a refused reservation and the wait is caught by waking up this often. */
    private static final long RECHECK_MILLIS = 100;
    /** How long a task thread waits for quota before it gives up. */
    static final long TIMEOUT_MINUTES = 10;

    private final MemoryBudget budget;
    private final long timeoutNanos;

    public ByteQuota(long limit) {
        this(limit, TimeUnit.MINUTES.toNanos(TIMEOUT_MINUTES));
    }

    ByteQuota(long limit, long timeoutNanos) {
        if (limit < 1) {
            throw new IllegalArgumentException("quota must be >= 1 byte, got " + limit);
        }
        this.budget = new MemoryBudget(limit);
        this.timeoutNanos = timeoutNanos;
    }

    /**
     * Takes {@code bytes} of quota (at most the whole quota), waiting until it is free. Returns the amount taken,
     * which the caller gives back with {@link #release}.
     *
     * @throws IOException if the quota was failed, with the failure as cause, or none came free in time
     */
    public long acquire(long bytes) throws IOException, InterruptedException {
        long amount = Math.min(Math.max(bytes, 0), budget.limit());
        budget.throwIfFailed();
        long deadline = System.nanoTime() + timeoutNanos;
        while (!budget.tryReserve(amount)) {
            if (System.nanoTime() - deadline > 0) {
                throw new IOException("no in-flight quota came free in " + TimeUnit.NANOSECONDS.toSeconds(timeoutNanos)
                        + " s (" + budget.used() + " of " + budget.limit() + " bytes held by records not yet written)");
            }
            budget.awaitRelease(RECHECK_MILLIS, TimeUnit.MILLISECONDS);
        }
        return amount;
    }

    public void release(long bytes) {
        budget.release(bytes);
    }

    /** Makes every current and future {@link #acquire} throw with {@code cause}. */
    public void fail(Throwable cause) {
        budget.fail(cause);
    }

    public long used() {
        return budget.used();
    }
}
