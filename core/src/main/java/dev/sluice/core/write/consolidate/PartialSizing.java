package dev.sluice.core.write.consolidate;

/**
 * How big a batch's in-memory partial buffer starts and grows. PR-13724 doubles from a fixed start; PR-14090 predicts
 * the batch's size from the partitions completed so far. Shared by every batch of one writer; thread-safe.
 */
public interface PartialSizing {
    /** Capacity of a new batch's buffer. */
    long initialCapacity();

    /** Capacity to grow to when {@code needed} bytes no longer fit in {@code capacity}. */
    default long grow(long capacity, long needed) {
        long next = Math.max(1, capacity);
        while (next < needed) {
            next *= 2;
        }
        return next;
    }

    /** A partition of some batch finished with {@code bytes} bytes. */
    default void partitionCompleted(long bytes) {}

    /** PR-13724: start at a fixed size and double. */
    static PartialSizing doubling(long initial) {
        return () -> initial;
    }
}
