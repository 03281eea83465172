package dev.sluice.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.core.partition.SparkMurmur3;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The formula the device evaluates column by column gives, key by key, the partition Spark's CPU
 * {@code HashPartitioning} picks: also for 200 partitions, where cuDF's own MURMUR3 partitioning does not.
 */
class SparkHashTest {
    private static final long[] EDGES = {0, 1, -1, 42, Long.MIN_VALUE, Long.MAX_VALUE, 0xffff_ffffL, 0x1_0000_0000L,
        Integer.MIN_VALUE, Integer.MAX_VALUE, 0x8000_0000L, -0x8000_0000L};

    @Test
    void theDeviceFormulaIsSparksMurmur3OfABigint() {
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < 200_000; i++) {
            long key = i < EDGES.length ? EDGES[i] : random.nextLong();
            for (int seed : new int[] {42, 0, -1}) {
                assertEquals(SparkMurmur3.hashLong(key, seed), SparkHash.hashLong(key, seed),
                        "key " + key + ", seed " + seed);
            }
        }
    }

    @Test
    void everyKeyLandsInSparksPartitionAtAnyPartitionCount() {
        SplittableRandom random = new SplittableRandom(7);
        for (int n : new int[] {1, 2, 7, 200, 256, 1000, 65_537, Integer.MAX_VALUE}) {
            for (int i = 0; i < 50_000; i++) {
                long key = i < EDGES.length ? EDGES[i] : random.nextLong();
                int partition = SparkHash.partitionOf(key, n);
                assertEquals(SparkMurmur3.partitionOf(key, n), partition, "key " + key + ", " + n + " partitions");
            }
        }
    }
}
