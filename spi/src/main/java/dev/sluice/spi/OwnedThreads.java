package dev.sluice.spi;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Makes the named daemon threads of one pool and remembers them, so that the pool's owner can wait until they are
 * gone. An executor's {@code awaitTermination} returns once its last worker has left the pool, while that worker's
 * thread may still be exiting: a leak check right after it can see the thread alive (WaveTest did, on a fresh clone).
 */
@WriterGiven
public final class OwnedThreads implements ThreadFactory {
    private final String prefix;
    private final AtomicInteger count = new AtomicInteger();
    private final List<Thread> started = new CopyOnWriteArrayList<>();

    /** Threads named {@code prefix-0}, {@code prefix-1}, ... */
    public OwnedThreads(String prefix) {
        this.prefix = prefix;
    }

    @Override
    public Thread newThread(Runnable r) {
        Thread t = new Thread(r, prefix + "-" + count.getAndIncrement());
        t.setDaemon(true);
        started.add(t);
        return t;
    }

    /**
     * Waits until every thread made here has ended, at most {@code timeoutMillis} in all.
     *
     * @throws IllegalStateException naming the first thread still alive at the deadline
     */
    public void join(long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        for (Thread t : started) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            t.join(Math.max(1, left));
            if (t.isAlive()) {
                throw new IllegalStateException(t.getName() + " did not stop within " + timeoutMillis + " ms");
            }
        }
    }
}
