package dev.sluice.strategy.consolidating;

import dev.sluice.strategy.support.Slots;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Upstream's merger at PR-13724 ({@code mergerTask} in {@code RapidsShuffleInternalManagerBase} @ e465ec3851): one
 * task per batch, queued on a merger slot from the executor-wide counter when the batch starts, that holds its slot
 * thread until the batch is done, waiting for each record in turn. With concurrent map tasks and bounded in-flight
 * quotas, mergers waiting on fixed slots can wait on each other (spark-rapids #15208), which is why
 * {@code merger=cooperative} is Sluice's default. Here every wait is bounded: a merger that waits
 * {@value #TIMEOUT_PROPERTY} seconds (default 600) without progress fails its writer with a cause that says so, which
 * wakes that map task and breaks the cycle, and an interrupt of its thread fails the writer instead of leaving it
 * hung (#14179).
 */
final class BlockingMerger extends BatchMerger implements Slots.SlotTask {
    /** Seconds a merger waits for its next record before it fails its writer. */
    static final String TIMEOUT_PROPERTY = "sluice.blockingMerger.timeoutSeconds";

    private final Slots slots;

    BlockingMerger(MergeEvents writer, PartialHandle partial, int partitions, byte[] header,
                   byte[] endOfStream, Slots slots) {
        super(writer, partial, partitions, header, endOfStream);
        this.slots = slots;
    }

    @Override
    void start() throws InterruptedException {
        slots.submit(slots.nextSlot(), this);
    }

    @Override
    void recordReady() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void run() {
        long timeoutSeconds = Long.getLong(TIMEOUT_PROPERTY, 600);
        long waitNanos = TimeUnit.SECONDS.toNanos(timeoutSeconds);
        boolean timedOut = false;
        while (true) {
            PendingRecord head = null;
            boolean done = false;
            lock.lock();
            try {
                long left = waitNanos;
                while (true) {
                    PendingRecord first = queue.peek();
                    if (first != null && first.ready()) {
                        head = queue.poll();
                        break;
                    }
                    if (first == null && sealed) {
                        done = true;
                        finished = true;
                        break;
                    }
                    if (left <= 0) {
                        if (timedOut) {
                            // Failed once already and still nothing moves: leave the rest to abort's bounded wait.
                            return;
                        }
                        timedOut = true;
                        writer.failWith(new TimeoutException("the merger of a batch waited " + timeoutSeconds
                                + " s for its next record; blocking mergers on fixed merger slots can wait on "
                                + "each other (spark-rapids #15208): use merger=cooperative"));
                        left = waitNanos;
                    }
                    try {
                        left = changed.awaitNanos(left);
                    } catch (InterruptedException e) {
                        writer.failWith(e);
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            } finally {
                lock.unlock();
            }
            if (done) {
                finishBatch();
                return;
            }
            append(head);
        }
    }

    /** Never ran (the executor closed first): the writer fails; its abort cleans up. */
    @Override
    public void cancel(Throwable why) {
        writer.failWith(why);
    }
}
