package dev.sluice.strategy.sort;

/**
 * Spark's {@code PackedRecordPointer}: a record's partition, page and offset in one long, partition in the top 24
 * bits (so that sorting the longs by their top three bytes sorts the records by partition), then a 13-bit page number
 * and a 27-bit offset in the page.
 */
final class PackedPointer {
    static final int MAX_PARTITIONS = 1 << 24;
    /** Pages a task may hold at once ({@code TaskMemoryManager.PAGE_TABLE_SIZE}). */
    static final int MAX_PAGES = 1 << 13;
    /** {@code PackedRecordPointer.MAXIMUM_PAGE_SIZE_BYTES}: what 27 bits of offset address. */
    static final long MAX_PAGE_BYTES = 1L << 27;
    /** The first byte (of eight, little end first) the radix sort reads: the partition's lowest. */
    static final int PARTITION_FIRST_BYTE = 5;

    private static final long OFFSET_MASK = MAX_PAGE_BYTES - 1;
    private static final long PAGE_MASK = MAX_PAGES - 1;

    private PackedPointer() {}

    static long pack(int partition, int page, long offset) {
        return ((long) partition << 40) | ((long) page << 27) | offset;
    }

    static int partition(long pointer) {
        return (int) (pointer >>> 40);
    }

    static int page(long pointer) {
        return (int) ((pointer >>> 27) & PAGE_MASK);
    }

    static long offset(long pointer) {
        return pointer & OFFSET_MASK;
    }
}
