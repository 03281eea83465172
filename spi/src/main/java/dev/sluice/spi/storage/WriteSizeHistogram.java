package dev.sluice.spi.storage;

import dev.sluice.spi.Bytes;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/** Counts write calls by size in power-of-two buckets: bucket {@code i} holds sizes in (2^(i-1), 2^i]. */
final class WriteSizeHistogram {
    static final int BUCKETS = 64;

    private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);

    void record(long bytes) {
        counts.incrementAndGet(bucketOf(bytes));
    }

    static int bucketOf(long bytes) {
        return bytes <= 1 ? 0 : 64 - Long.numberOfLeadingZeros(bytes - 1);
    }

    long[] snapshot() {
        long[] copy = new long[BUCKETS];
        for (int i = 0; i < BUCKETS; i++) {
            copy[i] = counts.get(i);
        }
        return copy;
    }

    /** Non-empty buckets as {@code "<=32KiB" -> count}, smallest first. */
    static Map<String, Long> describe(long[] buckets) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (int i = 0; i < buckets.length; i++) {
            if (buckets[i] != 0) {
                out.put("<=" + Bytes.format(1L << i), buckets[i]);
            }
        }
        return out;
    }
}
