package dev.sluice.strategy.support;

import dev.sluice.spi.OwnedThreads;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A fixed pool of named daemon threads with a bounded backlog: {@link #submit} waits (interruptibly) while the
 * backlog is full instead of growing a queue without bound or rejecting work. Tasks must handle their own failures;
 * one that throws anyway reaches the thread's uncaught-exception handler, never silence.
 *
 * <p>Waiting tasks run in submission order, or, in a pool made {@link #ordered}, in the order their callers give
 * them.
 */
public final class BoundedPool implements AutoCloseable {
    private static final long STOP_TIMEOUT_SECONDS = 30;
    private static final Comparator<Ordered> BY_RANK = Comparator.comparingLong(Ordered::major)
            .thenComparingLong(Ordered::minor)
            .thenComparingLong(Ordered::submitted);

    private final String name;
    private final ThreadPoolExecutor executor;
    private final Semaphore admission;
    private final OwnedThreads threads;
    private final boolean ordered;
    /** Submissions so far: what orders tasks of equal rank in an ordered pool. */
    private final AtomicLong submitted = new AtomicLong();

    /** A pool whose waiting tasks run in submission order. */
    public BoundedPool(String name, int threads, int backlog) {
        this(name, threads, backlog, false);
    }

    private BoundedPool(String name, int threads, int backlog, boolean ordered) {
        this.name = name;
        this.ordered = ordered;
        this.threads = new OwnedThreads(name);
        // A finished task gives its permit back before its thread takes the next one from the queue, so the queue
        // must hold every admitted task, not only the backlog (the semaphore bounds the unbounded priority queue).
        this.admission = new Semaphore(threads + backlog);
        BlockingQueue<Runnable> queue = ordered
                ? new PriorityBlockingQueue<>(threads + 1, (a, b) -> BY_RANK.compare((Ordered) a, (Ordered) b))
                : new LinkedBlockingQueue<>(backlog + threads);
        this.executor = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.SECONDS, queue, this.threads);
    }

    /**
     * A pool whose waiting tasks run smallest rank first ({@link #submit(Runnable, long, long)}), tasks of equal rank
     * in submission order: for work whose consumer takes it in an order of its own, such as a data file written in
     * partition order, so that what it needs next is done first.
     */
    public static BoundedPool ordered(String name, int threads, int backlog) {
        return new BoundedPool(name, threads, backlog, true);
    }

    /** Runs {@code task} on the pool, waiting for room in the backlog. */
    public void submit(Runnable task) throws InterruptedException {
        if (ordered) {
            throw new IllegalStateException(name + " runs tasks by rank: submit(task, major, minor)");
        }
        admission.acquire();
        enqueue(releasing(task));
    }

    /**
     * Runs {@code task} on a pool made {@link #ordered}, waiting for room in the backlog; among waiting tasks it runs
     * before those of a larger {@code (major, minor)}.
     */
    public void submit(Runnable task, long major, long minor) throws InterruptedException {
        if (!ordered) {
            throw new IllegalStateException(name + " runs tasks in submission order: submit(task)");
        }
        admission.acquire();
        enqueue(new Ordered(releasing(task), major, minor, submitted.getAndIncrement()));
    }

    /** A task with its rank: what an ordered pool's queue compares. */
    private record Ordered(Runnable task, long major, long minor, long submitted) implements Runnable {
        @Override
        public void run() {
            task.run();
        }
    }

    /**
     * Runs {@code task} on the pool without waiting, for work whose amount is bounded by its caller (a merger is
     * scheduled at most once per batch at a time).
     *
     * @throws RejectedExecutionException if the backlog is full, which means the caller's bound does not hold
     */
    public void execute(Runnable task) {
        if (ordered) {
            throw new IllegalStateException(name + " runs tasks by rank: submit(task, major, minor)");
        }
        if (!admission.tryAcquire()) {
            throw new RejectedExecutionException(name + " backlog is full");
        }
        enqueue(releasing(task));
    }

    /** {@code task}, giving its admission permit back when it ends. */
    private Runnable releasing(Runnable task) {
        return () -> {
            try {
                task.run();
            } finally {
                admission.release();
            }
        };
    }

    /** Hands an admitted task to the executor; the permit goes back if the executor refuses it. */
    private void enqueue(Runnable admitted) {
        try {
            executor.execute(admitted);
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
