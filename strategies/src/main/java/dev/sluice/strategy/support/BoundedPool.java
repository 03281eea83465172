package dev.sluice.strategy.support;

import dev.sluice.spi.OwnedThreads;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A fixed pool of named daemon threads with a bounded backlog: {@link #submit} waits (interruptibly) while the
 * backlog is full instead of growing a queue without bound or rejecting work. Tasks must handle their own failures;
 * one that throws anyway reaches the thread's uncaught-exception handler, never silence.
 */
public final class BoundedPool implements AutoCloseable {
    private static final long STOP_TIMEOUT_SECONDS = 30;

    private final String name;
    private final ThreadPoolExecutor executor;
    private final Semaphore admission;
    private final OwnedThreads threads;

    public BoundedPool(String name, int threads, int backlog) {
        this.name = name;
        this.threads = new OwnedThreads(name);
        // A finished task gives its permit back before its thread takes the next one from the queue, so the queue
        // must hold every admitted task, not only the backlog.
        this.admission = new Semaphore(threads + backlog);
        this.executor = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(backlog + threads), this.threads);
    }

    /** Runs {@code task} on the pool, waiting for room in the backlog. */
    public void submit(Runnable task) throws InterruptedException {
        admission.acquire();
        enqueue(task);
    }

    /**
     * Runs {@code task} on the pool without waiting, for work whose amount is bounded by its caller (a merger is
     * scheduled at most once per batch at a time).
     *
     * @throws RejectedExecutionException if the backlog is full, which means the caller's bound does not hold
     */
    public void execute(Runnable task) {
        if (!admission.tryAcquire()) {
            throw new RejectedExecutionException(name + " backlog is full");
        }
        enqueue(task);
    }

    private void enqueue(Runnable task) {
        try {
            executor.execute(() -> {
                try {
                    task.run();
                } finally {
                    admission.release();
                }
            });
        } catch (RuntimeException e) {
            admission.release();
            throw e;
        }
    }

    /** Stops the threads, waiting up to 30 s for running tasks; throws if one does not stop. */
    @Override
    public void close() {
        executor.shutdown();
        boolean interrupted = false;
        try {
            if (!executor.awaitTermination(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                List<Runnable> never = executor.shutdownNow();
                if (!executor.awaitTermination(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    throw new IllegalStateException(name + " threads did not stop; " + never.size() + " tasks never ran");
                }
            }
            threads.join(TimeUnit.SECONDS.toMillis(STOP_TIMEOUT_SECONDS));
        } catch (InterruptedException e) {
            interrupted = true;
            executor.shutdownNow();
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
