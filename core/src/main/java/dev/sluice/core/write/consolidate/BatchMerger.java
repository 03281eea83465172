package dev.sluice.core.write.consolidate;

import io.netty.buffer.ByteBuf;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The merger of one batch: appends the batch's records to its partial handle strictly in the order they were queued,
 * which is partition order 0..N-1 (a drop in partition id starts a new batch) and FIFO within a partition. A
 * partition is complete once a record of a higher partition follows it, or the batch ends.
 *
 * <p>Cooperative, as upstream's later {@code BatchMerger}: a run drains the records that are ready at the head of the
 * queue and returns; it never waits for a compression still running. It is scheduled on the merger pool when a record
 * finishes compressing and when the batch is sealed, and at most one run of a batch is scheduled or running at a time.
 */
final class BatchMerger {
    private final ConsolidatingWriter writer;
    final PartialHandle partial;
    /** Where each partition's segment starts in the partial, and how long it is (0: absent from this batch). */
    final long[] offsets;
    final long[] lengths;

    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<PendingRecord> queue = new ArrayDeque<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private boolean sealed;
    private boolean finished;
    private int currentPartition = -1;
    private long currentStart;

    BatchMerger(ConsolidatingWriter writer, PartialHandle partial, int partitions) {
        this.writer = writer;
        this.partial = partial;
        this.offsets = new long[partitions];
        this.lengths = new long[partitions];
    }

    /** Task thread: a record joins the batch. */
    void enqueue(PendingRecord record) {
        lock.lock();
        try {
            queue.add(record);
        } finally {
            lock.unlock();
        }
    }

    /** Task thread: the batch has all its records. */
    void seal() {
        lock.lock();
        try {
            sealed = true;
        } finally {
            lock.unlock();
        }
        schedule();
    }

    /** Any thread: make sure a run will look at the queue. */
    void schedule() {
        if (scheduled.compareAndSet(false, true)) {
            try {
                writer.mergers().execute(this::run);
            } catch (RuntimeException e) {
                scheduled.set(false);
                writer.failWith(e);
            }
        }
    }

    private void run() {
        while (true) {
            drain();
            scheduled.set(false);
            // Work that arrived after the drain and whose scheduler saw us still running: take it now.
            if (!hasWork() || !scheduled.compareAndSet(false, true)) {
                return;
            }
        }
    }

    private boolean hasWork() {
        lock.lock();
        try {
            PendingRecord head = queue.peek();
            return (head != null && head.ready()) || (sealed && queue.isEmpty() && !finished);
        } finally {
            lock.unlock();
        }
    }

    private void drain() {
        while (true) {
            PendingRecord head;
            boolean finishNow;
            lock.lock();
            try {
                head = queue.peek();
                if (head != null && head.ready()) {
                    queue.poll();
                    finishNow = false;
                } else {
                    head = null;
                    finishNow = sealed && queue.isEmpty() && !finished;
                    finished |= finishNow;
                }
            } finally {
                lock.unlock();
            }
            if (head != null) {
                append(head);
            } else {
                if (finishNow) {
                    finish();
                }
                return;
            }
        }
    }

    private void append(PendingRecord record) {
        ByteBuf bytes = record.compressed();
        try {
            if (bytes != null && writer.firstFailure() == null) {
                if (record.partitionId != currentPartition) {
                    completePartition();
                    currentPartition = record.partitionId;
                    currentStart = partial.size();
                }
                partial.append(bytes);
            }
        } catch (Throwable t) {
            writer.failWith(t);
        } finally {
            if (bytes != null) {
                bytes.release();
            }
            writer.memory().release(record.reserved);
            writer.pendingWork().finished();
        }
    }

    private void completePartition() {
        if (currentPartition >= 0) {
            offsets[currentPartition] = currentStart;
            lengths[currentPartition] = partial.size() - currentStart;
            writer.sizing().partitionCompleted(lengths[currentPartition]);
        }
    }

    private void finish() {
        try {
            completePartition();
            partial.finish();
        } catch (Throwable t) {
            writer.failWith(t);
        } finally {
            writer.pendingWork().finished();
        }
    }
}
