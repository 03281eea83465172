package dev.sluice.strategy.consolidating;

import dev.sluice.strategy.support.BoundedPool;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A merger that never waits, as upstream's became after #15208: a run drains the records ready at the head of the
 * queue and returns. It is scheduled on the merger pool when a record finishes compressing and when the batch is
 * sealed, and at most one run of a batch is scheduled or running at a time, so no pool thread is ever parked on
 * another task's work.
 */
final class CooperativeMerger extends BatchMerger {
    private final BoundedPool pool;
    private final AtomicBoolean scheduled = new AtomicBoolean();

    CooperativeMerger(MergeEvents writer, PartialHandle partial, int partitions, byte[] header,
                      byte[] endOfStream, BoundedPool pool) {
        super(writer, partial, partitions, header, endOfStream);
        this.pool = pool;
    }

    @Override
    void start() {}

    @Override
    void recordReady() {
        schedule();
    }

    @Override
    void seal() {
        super.seal();
        schedule();
    }

    private void schedule() {
        if (scheduled.compareAndSet(false, true)) {
            try {
                pool.execute(this::run);
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
                    finishBatch();
                }
                return;
            }
        }
    }
}
