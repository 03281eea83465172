package dev.sluice.core.partition;

/**
 * Spark's {@code Murmur3_x86_32.hashLong}: Murmur3 x86 32-bit over the long's 8 little-endian bytes. With seed 42 it is
 * what Spark's {@code HashPartitioning} (SQL {@code hash()}) computes for a single bigint column.
 */
public final class SparkMurmur3 {
    public static final int SPARK_SEED = 42;
    private static final int C1 = 0xcc9e2d51;
    private static final int C2 = 0x1b873593;

    private SparkMurmur3() {}

    public static int hashLong(long input, int seed) {
        int low = (int) input;
        int high = (int) (input >>> 32);
        int h1 = mixH1(seed, mixK1(low));
        h1 = mixH1(h1, mixK1(high));
        return fmix(h1, 8);
    }

    /** The partition Spark's {@code HashPartitioning} picks for a bigint key: {@code pmod(hash(key), n)}. */
    public static int partitionOf(long key, int numPartitions) {
        int mod = hashLong(key, SPARK_SEED) % numPartitions;
        return mod < 0 ? mod + numPartitions : mod;
    }

    private static int mixK1(int k1) {
        k1 *= C1;
        k1 = Integer.rotateLeft(k1, 15);
        return k1 * C2;
    }

    private static int mixH1(int h1, int k1) {
        h1 ^= k1;
        h1 = Integer.rotateLeft(h1, 13);
        return h1 * 5 + 0xe6546b64;
    }

    private static int fmix(int h1, int length) {
        h1 ^= length;
        h1 ^= h1 >>> 16;
        h1 *= 0x85ebca6b;
        h1 ^= h1 >>> 13;
        h1 *= 0xc2b2ae35;
        h1 ^= h1 >>> 16;
        return h1;
    }
}
