package dev.sluice.strategy.support;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * spark-rapids' slots ({@code RapidsShuffleInternalManagerBase.Slot}): a fixed set of single-thread workers shared by
 * every map task of the executor. Work that must stay in order is pinned to one slot; slot numbers are handed out by
 * one executor-wide counter ({@code getNextWriterSlot}, {@code getNextMergerSlot}), so concurrent map tasks spread
 * over the slots. Each slot's queue is bounded; a full queue makes the submitter wait (interruptibly).
 */
public final class Slots implements AutoCloseable {
    /** Tasks a slot may have queued; with the in-flight byte quota this bounds memory of queued records. */
    static final int QUEUE_CAPACITY = 1024;
    private static final long STOP_TIMEOUT_SECONDS = 30;

    /** Work for a slot; never throws from {@link #run}, and is told when it will never run. */
    public interface SlotTask extends Runnable {
        void cancel(Throwable why);
    }

    private final List<Slot> slots = new ArrayList<>();
    private final AtomicInteger counter = new AtomicInteger();
    private volatile boolean closing;

    public Slots(int threads, String namePrefix) {
        for (int i = 0; i < threads; i++) {
            Slot slot = new Slot(namePrefix + "-" + i, this);
            slots.add(slot);
            slot.thread.start();
        }
    }

    /** The next slot number of the executor-wide counter (upstream's {@code getNext...Slot}). */
    public int nextSlot() {
        return Math.floorMod(counter.getAndIncrement(), slots.size());
    }

    /** {@code count} consecutive slot numbers of the counter at once: the first is returned. */
    public int nextSlots(int count) {
        return Math.floorMod(counter.getAndAdd(count), slots.size());
    }

    /** Queues {@code task} on slot {@code slot} modulo the number of slots, waiting while that slot's queue is full. */
    public void submit(int slot, SlotTask task) throws InterruptedException {
        slots.get(Math.floorMod(slot, slots.size())).queue.put(task);
    }

    /** Stops every slot thread (waiting up to 30 s each) and cancels tasks that never ran. */
    @Override
    public void close() {
        closing = true;
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
                ((SlotTask) task).cancel(new CancellationException("slots closed before this task ran"));
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (!stuck.isEmpty()) {
            throw new IllegalStateException("slot threads did not stop within " + STOP_TIMEOUT_SECONDS + " s: " + stuck);
        }
    }

    private static final class Slot implements Runnable {
        final BlockingQueue<Runnable> queue = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
        final Thread thread;
        private final Slots owner;

        Slot(String name, Slots owner) {
            this.owner = owner;
            thread = new Thread(this, name);
            thread.setDaemon(true);
        }

        /** Runs tasks until the slots close; an interrupt a task leaves behind does not end the thread. */
        @Override
        public void run() {
            while (!owner.closing) {
                Runnable task;
                try {
                    task = queue.take();
                } catch (InterruptedException e) {
                    continue;
                }
                task.run();
                Thread.interrupted();
            }
        }
    }
}
