package dev.sluice.strategy.consolidating;

import dev.sluice.strategy.support.BoundedPool;
import dev.sluice.strategy.support.Slots;
import java.util.Arrays;

/** Where one map task's records are compressed: {@code compression=slots} (upstream) or {@code compression=pool}. */
abstract class RecordCompression {
    /**
     * Runs {@code work} for a record of {@code partition}; {@code dropped} runs instead if it never will (the
     * executor closed first).
     */
    abstract void submit(int partition, Runnable work, Runnable dropped) throws InterruptedException;

    /**
     * Upstream's {@code partitionSlots.computeIfAbsent(partition, getNextWriterSlot)}: the first record of a partition
     * picks the partition's slot from the executor-wide counter; every later record of it in this map task goes to
     * the same single-thread slot, in order.
     */
    static final class PinnedToSlots extends RecordCompression {
        private final Slots slots;
        private final int[] slotOfPartition;

        PinnedToSlots(Slots slots, int partitions) {
            this.slots = slots;
            this.slotOfPartition = new int[partitions];
            Arrays.fill(slotOfPartition, -1);
        }

        @Override
        void submit(int partition, Runnable work, Runnable dropped) throws InterruptedException {
            if (slotOfPartition[partition] < 0) {
                slotOfPartition[partition] = slots.nextSlot();
            }
            slots.submit(slotOfPartition[partition], new Slots.SlotTask() {
                @Override
                public void run() {
                    work.run();
                }

                @Override
                public void cancel(Throwable why) {
                    dropped.run();
                }
            });
        }
    }

    /** Sluice: any thread of one pool takes the next record, whatever its partition. */
    static final class SharedPool extends RecordCompression {
        private final BoundedPool pool;

        SharedPool(BoundedPool pool) {
            this.pool = pool;
        }

        @Override
        void submit(int partition, Runnable work, Runnable dropped) throws InterruptedException {
            pool.submit(work);
        }
    }
}
