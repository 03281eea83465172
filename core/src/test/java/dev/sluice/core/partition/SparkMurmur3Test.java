package dev.sluice.core.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Vectors computed by Apache Spark 4.3.0 (pyspark, local[1]) as {@code hash(CAST(v AS BIGINT))},
 * {@code pmod(hash(..), 200)} and {@code pmod(hash(..), 7)}, and confirmed with {@code df.repartition(n, col("v"))}
 * plus {@code spark_partition_id()}.
 */
class SparkMurmur3Test {
    @ParameterizedTest(name = "key {0}")
    @CsvSource({
        "0, -1670924195, 5, 4",
        "1, -1712319331, 69, 5",
        "-1, -939490007, 193, 6",
        "42, 1316951768, 168, 6",
        "2147483647, -1076662929, 71, 1",
        "2147483648, 238268309, 109, 6",
        "-2147483648, -1889108749, 51, 4",
        "9223372036854775807, -1604625029, 171, 0",
        "-9223372036854775808, -853646085, 115, 2",
        "123456789012345, 1130168193, 193, 0",
        "-987654321, 766683924, 124, 6",
    })
    void matchesSpark(long key, int sparkHash, int pmod200, int pmod7) {
        assertEquals(sparkHash, SparkMurmur3.hashLong(key, SparkMurmur3.SPARK_SEED));
        assertEquals(pmod200, SparkMurmur3.partitionOf(key, 200));
        assertEquals(pmod7, SparkMurmur3.partitionOf(key, 7));
    }

    @Test
    void hashPartitioningOfABatchPutsKeysWhereSparkDoes() {
        long[] keys = {0, 1, -1, 42, Long.MIN_VALUE, Long.MAX_VALUE};
        int[] spark200 = {5, 69, 193, 168, 115, 171};
        try (BufferAllocator allocator = new RootAllocator();
             BigIntVector key = new BigIntVector("key", allocator)) {
            key.allocateNew(keys.length);
            for (int i = 0; i < keys.length; i++) {
                key.set(i, keys[i]);
            }
            key.setValueCount(keys.length);
            try (VectorSchemaRoot batch = VectorSchemaRoot.of(key)) {
                int[] partitions = new int[keys.length];
                Partitioning.HASH.create(200, 0).assign(batch, partitions);
                org.junit.jupiter.api.Assertions.assertArrayEquals(spark200, partitions);
            }
        }
    }
}
