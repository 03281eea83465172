package dev.sluice.strategy.consolidating;

/**
 * How a batch's partial buffer grows when a write no longer fits. Both PRs start at a fixed capacity
 * ({@code initialPartial}); they differ in the growth step. The answer may be below {@code required} (the buffer
 * cannot grow enough): the partial then continues as a file.
 */
public interface PartialSizing {
    /**
     * The next capacity.
     *
     * @param capacity current capacity
     * @param required bytes that must fit
     * @param completedPartitions partitions of this batch already complete, empty ones included
     * @param completedBytes bytes of those partitions
     * @param max the largest capacity allowed
     */
    long grow(long capacity, long required, int completedPartitions, long completedBytes, long max);

    /** PR-13724 ({@code expandBuffer} @ e465ec3851): double until it fits or reaches the maximum. */
    PartialSizing DOUBLING = (capacity, required, completedPartitions, completedBytes, max) -> {
        long next = Math.max(1, capacity);
        while (next < required && next < max) {
            next = Math.min(next * 2, max);
        }
        return next;
    };

    /**
     * PR-14090 ({@code capacityHintProvider} in RapidsLocalDiskShuffleMapOutputWriter @ c4d50b3624): once a partition of
     * the batch is complete, the batch is predicted as the average completed partition x partitions x 1.2; before
     * that, twice what is required.
     */
    static PartialSizing predictive(int partitions) {
        return (capacity, required, completedPartitions, completedBytes, max) -> {
            long hint;
            if (completedPartitions > 0) {
                double average = (double) completedBytes / completedPartitions;
                hint = Math.max((long) (average * partitions * 1.2), required);
            } else {
                hint = required * 2;
            }
            return Math.min(hint, max);
        };
    }
}
