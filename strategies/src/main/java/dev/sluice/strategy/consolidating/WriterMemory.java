package dev.sluice.strategy.consolidating;

import dev.sluice.spi.InputBatch;
import dev.sluice.spi.memory.TaskMemory;
import dev.sluice.strategy.support.MemoryBudget;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * What one map task's writer holds in memory, and what the memory limit does about it. Two bounds:
 * {@link Threshold} is upstream's (only partials count, and they go to file once the executor passes a fraction of its
 * limit); {@link Exact} is Sluice's (records and partials are charged to the executor's limit before they are
 * allocated, and the task thread spills or waits rather than pass it). Either way the writer's own use is tracked
 * for {@code peakBufferedBytes}.
 *
 * <p>Under either bound, partial memory is also the map task's, as its host manages it ({@link TaskMemory}: Spark's
 * task memory manager inside Spark, unbounded elsewhere): charged to the task before the bound, so that a partial the
 * task cannot have goes to file as one the bound refuses does, and given back with it. When the host asks for memory
 * back, this writer's finished partials go to file, the largest first ({@link #spillForTask}).
 */
abstract class WriterMemory {
    protected final ExecutorMemory host;
    /** This writer's use, charged after the executor's and released before it. */
    protected final MemoryBudget own = new MemoryBudget(Long.MAX_VALUE);
    private final TaskMemory task;
    /** Bytes this writer's partials wrote to their files. */
    private final LongAdder spilled = new LongAdder();

    WriterMemory(ExecutorMemory host, TaskMemory task) {
        this.host = host;
        this.task = task;
    }

    static WriterMemory create(ConsolidatingSettings settings, ExecutorMemory host, TaskMemory task) {
        switch (settings.memoryBound) {
            case EXACT:
                return new Exact(host, task);
            case PARTIALS_ONLY:
                return new Threshold(host, task, settings.memoryThreshold, false);
            default:
                return new Threshold(host, task, settings.memoryThreshold, true);
        }
    }

    /** Task thread: a record of {@code batch} reached the writer (its batch's host copy exists). */
    void inputArrived(InputBatch batch) throws IOException {}

    /** A record of {@code batch} was serialized, or dropped: it no longer needs its rows. */
    void inputSerialized(InputBatch batch) {}

    /** Task thread: the map task hands over no more records. */
    void inputEnded() {}

    /** The writer is done, whatever happened: input copies still charged are given back. */
    void releaseInputs() {}

    /**
     * Task thread, before a record is handed over: memory for compressing it ({@code bound} bytes at most). Returns
     * what was reserved, which {@link #recordSerialized} later trims.
     *
     * @param failure the writer's first failure so far, checked while waiting
     */
    abstract long acquireRecord(long bound, Supplier<Throwable> failure) throws IOException, InterruptedException;

    /** The record now holds {@code kept} bytes of the {@code reserved} ones. */
    abstract void recordSerialized(long reserved, long kept);

    /** The merger appended the record, which held {@code kept} bytes. */
    abstract void releaseRecord(long kept);

    /** Whether a new batch's partial may start in memory (else it is a file from the start, upstream's FILE_ONLY). */
    abstract boolean partialMayStartInMemory();

    /**
     * Merger: {@code bytes} more of partial memory, the task's first and then the bound's; false, and nothing charged,
     * means the partial goes to file instead.
     */
    final boolean tryReservePartial(long bytes) throws IOException {
        return chargeTask(bytes) && unlessRefused(bytes, reservePartial(bytes));
    }

    /**
     * Merger, {@code partial=records}: a record's {@code kept} bytes of memory become partial memory (released with
     * the partial, not as a record), charged to the task; false, and nothing changed, if a partial may not hold more.
     */
    final boolean tryAdoptRecord(long kept) throws IOException {
        return chargeTask(kept) && unlessRefused(kept, adoptRecord(kept));
    }

    /** The bound's part of {@link #tryReservePartial}. */
    abstract boolean reservePartial(long bytes) throws IOException;

    /** The bound's part of {@link #tryAdoptRecord}. */
    abstract boolean adoptRecord(long kept) throws IOException;

    /** All of {@code bytes} from the task, or none: a partial cannot hold part of a buffer. */
    private boolean chargeTask(long bytes) {
        long granted = task.acquire(bytes);
        if (granted < bytes) {
            if (granted > 0) {
                task.release(granted);
            }
            return false;
        }
        return true;
    }

    /** Gives the task's charge back where the bound refused. */
    private boolean unlessRefused(long bytes, boolean reserved) {
        if (!reserved) {
            task.release(bytes);
        }
        return reserved;
    }

    /**
     * The host wants memory back: this writer's finished partials in memory go to file, the largest first, until
     * {@code wanted} bytes are given back or none is left that no other thread holds. Returns the bytes given back.
     */
    long spillForTask(long wanted) throws IOException {
        long freed = 0;
        while (freed < wanted) {
            long one = host.spillLargestFinished(this);
            if (one == 0) {
                break;
            }
            freed += one;
        }
        return freed;
    }

    /** A partial of this writer wrote {@code bytes} to its file (what it held in memory, or what came after). */
    void spilled(long bytes) {
        spilled.add(bytes);
    }

    /** Bytes this writer's partials wrote to their files: those that did not stay in memory. */
    long spilledBytes() {
        return spilled.sum();
    }

    /**
     * A buffer the writer does I/O through (a partial file's 64 KiB stream buffer; the merge's arrays are not charged);
     * false means go without. Upstream's are JVM heap, outside the host limit.
     */
    abstract boolean tryReserveIoBuffer(long bytes) throws IOException;

    abstract void releaseIoBuffer(long bytes);

    /** Own use goes down before the executor's, so that it never exceeds the executor's, even for a moment. */
    void releasePartial(long bytes) {
        own.release(bytes);
        host.budget().release(bytes);
        task.release(bytes);
    }

    /** The most this writer held at once. */
    long peak() {
        return own.peak();
    }

    /**
     * Upstream: records are the in-flight limiter's business (heap, outside {@code HostAlloc}); partials check the
     * host threshold. As {@code HostAlloc} ({@code hostAlloc}, memoryBound=threshold), host use also counts the input
     * batches' host copies, and a partial allocation under the threshold that does not fit the limit first spills
     * other finished partials and retries ({@code spillAndCheckRetry}, HostAlloc.scala @ e465ec3851) before the
     * partial goes to file. Without ({@code memoryBound=partials-only}), only partials count and one that does not fit
     * goes straight to file.
     */
    static final class Threshold extends WriterMemory {
        private final double threshold;
        /** Null for partials-only. */
        private final InputCopies inputs;

        Threshold(ExecutorMemory host, TaskMemory task, double threshold, boolean hostAlloc) {
            super(host, task);
            this.threshold = threshold;
            this.inputs = hostAlloc ? new InputCopies(host.budget()) : null;
        }

        /** {@code HostAlloc.alloc} of the batch's host copy: room is made by spilling finished partials first. */
        @Override
        void inputArrived(InputBatch batch) throws IOException {
            if (inputs == null) {
                return;
            }
            long bytes = inputs.arrived(batch);
            if (bytes > 0) {
                try {
                    while (host.budget().used() + bytes > host.budget().limit() && host.spillLargestFinished() > 0) {
                        // spilled one; look again
                    }
                } finally {
                    // Charged even if a spill failed: the batch is counted as arrived, and is given back with the rest.
                    inputs.charge(bytes);
                }
            }
        }

        @Override
        void inputSerialized(InputBatch batch) {
            if (inputs != null) {
                inputs.serialized(batch);
            }
        }

        @Override
        void inputEnded() {
            if (inputs != null) {
                inputs.end();
            }
        }

        @Override
        void releaseInputs() {
            if (inputs != null) {
                inputs.releaseAll();
            }
        }

        /** Reserves {@code bytes} of host memory, spilling other finished partials while it does not fit. */
        private boolean reserveHost(long bytes) throws IOException {
            while (!host.budget().tryReserve(bytes)) {
                if (inputs == null || host.spillLargestFinished() == 0) {
                    return false;
                }
            }
            return true;
        }

        @Override
        long acquireRecord(long bound, Supplier<Throwable> failure) {
            own.reserve(bound);
            return bound;
        }

        @Override
        void recordSerialized(long reserved, long kept) {
            if (kept > reserved) {
                own.reserve(kept - reserved);
            } else {
                own.release(reserved - kept);
            }
        }

        @Override
        void releaseRecord(long kept) {
            own.release(kept);
        }

        @Override
        boolean partialMayStartInMemory() {
            return host.usageBelow(threshold);
        }

        @Override
        boolean reservePartial(long bytes) throws IOException {
            if (!host.usageBelow(threshold) || !reserveHost(bytes)) {
                return false;
            }
            own.reserve(bytes);
            return true;
        }

        /** The record was counted only as the writer's own; as a partial it counts for the executor too. */
        @Override
        boolean adoptRecord(long kept) throws IOException {
            return host.usageBelow(threshold) && reserveHost(kept);
        }

        @Override
        boolean tryReserveIoBuffer(long bytes) {
            own.reserve(bytes);
            return true;
        }

        @Override
        void releaseIoBuffer(long bytes) {
            own.release(bytes);
        }
    }

    /** Sluice: one exact bound over records and partials of every map task of the executor. */
    static final class Exact extends WriterMemory {
        static final long TIMEOUT_MINUTES = 10;
        private static final long POLL_MILLIS = 50;

        Exact(ExecutorMemory host, TaskMemory task) {
            super(host, task);
        }

        /** Waits for memory, spilling the largest spillable partial of the executor to make room. */
        @Override
        long acquireRecord(long bound, Supplier<Throwable> failure) throws IOException, InterruptedException {
            long amount = Math.min(bound, host.budget().limit());
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(TIMEOUT_MINUTES);
            while (!host.budget().tryReserve(amount)) {
                Throwable failed = failure.get();
                if (failed != null) {
                    throw new IOException("shuffle writer failed", failed);
                }
                if (host.spillLargest() > 0) {
                    continue;
                }
                if (System.nanoTime() > deadline) {
                    throw new IOException("no writer memory came free in " + TIMEOUT_MINUTES + " minutes (limit "
                            + host.budget().limit() + " bytes, " + host.budget().used() + " in use)");
                }
                host.budget().awaitRelease(POLL_MILLIS, TimeUnit.MILLISECONDS);
            }
            own.reserve(amount);
            return amount;
        }

        @Override
        void recordSerialized(long reserved, long kept) {
            if (kept > reserved) {
                // The reservation is an upper bound of what compressing needs, so this does not happen; if it did,
                // the memory exists already and is counted rather than hidden.
                host.budget().reserve(kept - reserved);
                own.reserve(kept - reserved);
            } else {
                own.release(reserved - kept);
                host.budget().release(reserved - kept);
            }
        }

        @Override
        void releaseRecord(long kept) {
            own.release(kept);
            host.budget().release(kept);
        }

        @Override
        boolean partialMayStartInMemory() {
            return true;
        }

        @Override
        boolean reservePartial(long bytes) throws IOException {
            if (!host.budget().tryReserve(bytes)) {
                return false;
            }
            own.reserve(bytes);
            return true;
        }

        /** The record is charged to the executor already: the charge only changes hands. */
        @Override
        boolean adoptRecord(long kept) throws IOException {
            return true;
        }

        @Override
        boolean tryReserveIoBuffer(long bytes) throws IOException {
            return tryReservePartial(bytes);
        }

        @Override
        void releaseIoBuffer(long bytes) {
            releasePartial(bytes);
        }
    }
}
