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

    /** What docs/gpu.md says the device pays per batch, where spark-rapids runs one fused kernel. */
    @Test
    void theFormulaIs34ColumnOperationsOnTheDevice() {
        int[] operations = {0};
        SparkHash.Words<Long, Integer> counting = new SparkHash.Words<>() {
            private Integer count() {
                operations[0]++;
                return 0;
            }

            @Override
            public Integer low32(Long key) {
                return count();
            }

            @Override
            public Integer high32(Long key) {
                return count();
            }

            @Override
            public Integer multiply(Integer w, int constant) {
                return count();
            }

            @Override
            public Integer add(Integer w, int constant) {
                return count();
            }

            @Override
            public Integer xor(Integer a, Integer b) {
                return count();
            }

            @Override
            public Integer xor(Integer w, int constant) {
                return count();
            }

            @Override
            public Integer shiftLeft(Integer w, int bits) {
                return count();
            }

            @Override
            public Integer shiftRight(Integer w, int bits) {
                return count();
            }

            @Override
            public Integer or(Integer a, Integer b) {
                return count();
            }

            @Override
            public Integer pmod(Integer w, int n) {
                return count();
            }
        };
        SparkHash.partitionIds(counting, 42L, 200);
        assertEquals(34, operations[0]);
    }
}
