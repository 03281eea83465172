package dev.sluice.core.write.consolidate;

import java.util.concurrent.atomic.AtomicLong;

/**
 * PR-14090's buffer sizing: a new partial starts at the average completed-partition size x partitions x 1.2, so that
 * a batch like the ones before it fits without regrowing; until a partition has completed, and whenever a batch
 * outgrows its prediction, it falls back to doubling.
 */
public final class PredictiveSizing implements PartialSizing {
    static final double HEADROOM = 1.2;

    private final int partitions;
    private final long fallbackInitial;
    private final AtomicLong completedPartitions = new AtomicLong();
    private final AtomicLong completedBytes = new AtomicLong();

    public PredictiveSizing(int partitions, long fallbackInitial) {
        this.partitions = partitions;
        this.fallbackInitial = fallbackInitial;
    }

    @Override
    public long initialCapacity() {
        long count = completedPartitions.get();
        if (count == 0) {
            return fallbackInitial;
        }
        double average = (double) completedBytes.get() / count;
        return Math.max(1, (long) Math.ceil(average * partitions * HEADROOM));
    }

    @Override
    public void partitionCompleted(long bytes) {
        completedBytes.addAndGet(bytes);
        completedPartitions.incrementAndGet();
    }
}
