package dev.sluice.strategy.support;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Counts a writer's tasks handed to background threads and not yet finished, and keeps the first failure any of them
 * had. Commit waits for the count to reach zero; so does abort, before it deletes files those tasks may be writing.
 * Finishing a task happens-before a waiter sees the count reach zero.
 */
public final class PendingWork {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition idle = lock.newCondition();
    private long pending;
    private volatile Throwable failure;

    public void started() {
        lock.lock();
        try {
            pending++;
        } finally {
            lock.unlock();
        }
    }

    public void finished() {
        lock.lock();
        try {
            if (--pending == 0) {
                idle.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Records a failure; only the first is kept. Returns whether this was the first. */
    public boolean fail(Throwable cause) {
        lock.lock();
        try {
            if (failure != null) {
                return false;
            }
            failure = cause;
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** The first failure, or null. */
    public Throwable failure() {
        return failure;
    }

    /** Waits until no task is pending; interruptible, and gives up after {@code timeout}. */
    public void awaitIdle(long timeout, TimeUnit unit) throws InterruptedException, TimeoutException {
        long nanos = unit.toNanos(timeout);
        lock.lockInterruptibly();
        try {
            while (pending > 0) {
                if (nanos <= 0) {
                    throw new TimeoutException(pending + " background tasks still running after " + unit.toMillis(timeout) + " ms");
                }
                nanos = idle.awaitNanos(nanos);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * As {@link #awaitIdle}, but an interrupt does not cut the wait short (it is re-asserted afterwards): cleanup must
     * not delete files a task is still writing. Returns whether the work became idle within the timeout.
     */
    public boolean awaitIdleForCleanup(long timeout, TimeUnit unit) {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    awaitIdle(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                    return true;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (TimeoutException e) {
                    return false;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
