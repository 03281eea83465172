package dev.sluice.strategy.sort;

/**
 * Spark's {@code ShuffleInMemorySorter}: the records' packed pointers, in an array of which only half is usable,
 * because the radix sort uses the other half as its buffer ({@code spark.shuffle.sort.useRadixSort}, on by default).
 * Sorting is stable, so a partition's records keep their insertion order. Its memory is the task's to account for.
 */
final class PointerArray {
    private long[] array;
    private int records;

    PointerArray(int initialSize) {
        this.array = new long[initialSize];
    }

    /** Bytes the array holds. */
    long bytes() {
        return 8L * array.length;
    }

    int records() {
        return records;
    }

    /** {@code hasSpaceForAnotherRecord}: the records fill less than the usable half. */
    boolean hasSpace() {
        return records < array.length / 2;
    }

    /** The size {@code growPointerArrayIfNecessary} asks for: twice the array. */
    int grownSize() {
        return Math.toIntExact(Math.min(Integer.MAX_VALUE - 8, 2L * array.length));
    }

    /** {@code expandPointerArray}: copies the records into a larger array; returns the bytes of the old one. */
    long expand(int size) {
        long[] larger = new long[size];
        System.arraycopy(array, 0, larger, 0, records);
        long freed = bytes();
        array = larger;
        return freed;
    }

    void insert(long pointer) {
        array[records++] = pointer;
    }

    /**
     * {@code reset} after a spill: the array goes back to {@code initialSize} (Spark frees it and allocates the initial
     * one again); returns the bytes freed less the bytes taken.
     */
    long reset(int initialSize) {
        long before = bytes();
        records = 0;
        if (array.length != initialSize) {
            array = new long[initialSize];
        }
        return before - bytes();
    }

    /**
     * Sorts the pointers by partition, as {@code RadixSort.sort(array, records, 5, 7, false, false)} does: least
     * significant byte first over the partition's three bytes, skipping a byte that every pointer shares, each pass
     * moving the pointers between the two halves of the array. Returns where the sorted pointers start.
     */
    int sortByPartition() {
        if (records == 0) {
            return 0;
        }
        int from = 0;
        int to = records;
        for (int b = PackedPointer.PARTITION_FIRST_BYTE; b < 8; b++) {
            int shift = 8 * b;
            int[] counts = new int[256];
            for (int i = 0; i < records; i++) {
                counts[(int) ((array[from + i] >>> shift) & 0xff)]++;
            }
            if (counts[(int) ((array[from] >>> shift) & 0xff)] == records) {
                continue;
            }
            int[] offsets = new int[256];
            for (int v = 1; v < 256; v++) {
                offsets[v] = offsets[v - 1] + counts[v - 1];
            }
            for (int i = 0; i < records; i++) {
                long pointer = array[from + i];
                array[to + offsets[(int) ((pointer >>> shift) & 0xff)]++] = pointer;
            }
            int swap = from;
            from = to;
            to = swap;
        }
        return from;
    }

    long get(int index) {
        return array[index];
    }
}
