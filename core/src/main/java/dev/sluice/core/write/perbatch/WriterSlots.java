package dev.sluice.core.write.perbatch;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;

/**
 * spark-rapids' writer slots: a fixed set of single-thread workers shared by every map task of the executor. A
 * partition is pinned to one slot ({@code partition % slots}), so its records are written in the order they arrived.
 * Each slot's queue is bounded; a full queue makes the submitting task thread wait (interruptibly).
 */
final class WriterSlots implements AutoCloseable {
    /** Tasks a slot may have queued; with the in-flight byte quota this bounds memory of queued records. */
    static final int QUEUE_CAPACITY = 1024;
    private static final long STOP_TIMEOUT_SECONDS = 30;

    /** Work for a slot; never throws from {@link #run}, and is told when it will never run. */
    interface SlotTask extends Runnable {
        void cancel(Throwable why);
    }

    private final List<Slot> slots = new ArrayList<>();

    WriterSlots(int threads, String namePrefix) {
        for (int i = 0; i < threads; i++) {
            Slot slot = new Slot(namePrefix + "-" + i);
            slots.add(slot);
            slot.thread.start();
        }
    }

    void submit(int partition, SlotTask task) throws InterruptedException {
        slots.get(partition % slots.size()).queue.put(task);
    }

    /** Stops every slot thread (waiting up to 30 s each) and cancels tasks that never ran. */
    @Override
    public void close() {
        for (Slot slot : slots) {
            slot.thread.interrupt();
        }
        List<String> stuck = new ArrayList<>();
        boolean interrupted = false;
        for (Slot slot : slots) {
            try {
                slot.thread.join(TimeUnit.SECONDS.toMillis(STOP_TIMEOUT_SECONDS));
            } catch (InterruptedException e) {
                interrupted = true;
            }
            if (slot.thread.isAlive()) {
                stuck.add(slot.thread.getName());
            }
            List<Runnable> never = new ArrayList<>();
            slot.queue.drainTo(never);
            for (Runnable task : never) {
                ((SlotTask) task).cancel(new CancellationException("writer slots closed before this record was written"));
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (!stuck.isEmpty()) {
            throw new IllegalStateException("writer threads did not stop within " + STOP_TIMEOUT_SECONDS + " s: " + stuck);
        }
    }

    private static final class Slot implements Runnable {
        final BlockingQueue<Runnable> queue = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
        final Thread thread;

        Slot(String name) {
            thread = new Thread(this, name);
            thread.setDaemon(true);
        }

        @Override
        public void run() {
            while (true) {
                Runnable task;
                try {
                    task = queue.take();
                } catch (InterruptedException e) {
                    return;
                }
                task.run();
            }
        }
    }
}
