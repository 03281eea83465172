package dev.sluice.gpu;

import dev.sluice.core.partition.SparkMurmur3;

/**
 * Spark's Murmur3 of a bigint key and its {@code pmod}, written once over {@link Words}: 32-bit words that are either
 * one value on the host ({@link #partitionOf}, which tests hold against {@link SparkMurmur3}) or whole cuDF columns
 * on the device ({@link DeviceWords}). spark-rapids computes the hash with spark-rapids-jni's fused
 * {@code Hash.murmurHash32} kernel; that jar carries its own copy of cudf-java's classes and cannot share a class path
 * with cudf-java, and cudf's own {@code MURMUR3} combines the seed differently from Spark (its {@code hashPartition}
 * matches Spark only for a power-of-two partition count). Here the same arithmetic runs as cuDF binary operations on
 * unsigned 32-bit columns, one kernel each, where multiplication and shifts wrap exactly as Java's {@code int} does.
 */
public final class SparkHash {
    private static final int C1 = 0xcc9e2d51;
    private static final int C2 = 0x1b873593;

    private SparkHash() {}

    /** What the formula needs of 32-bit words {@code W} and 64-bit keys {@code K}; all arithmetic wraps. */
    public interface Words<K, W> {
        W low32(K key);

        /** The high 32 bits, shifted down ({@code key >>> 32}). */
        W high32(K key);

        W multiply(W w, int constant);

        W add(W w, int constant);

        W xor(W a, W b);

        W xor(W w, int constant);

        W shiftLeft(W w, int bits);

        /** Logical shift right. */
        W shiftRight(W w, int bits);

        W or(W a, W b);

        /** The words as signed ints, {@code pmod} {@code n}: the partition ids. */
        W pmod(W w, int n);
    }

    /** Spark's {@code Murmur3_x86_32.hashLong(key, seed)}: the low word, then the high word, then the finalizer. */
    public static <K, W> W hashLong(Words<K, W> words, K key, int seed) {
        W h1 = mixH1(words, words.xor(mixK1(words, words.low32(key)), seed));
        h1 = mixH1(words, words.xor(h1, mixK1(words, words.high32(key))));
        return fmix(words, h1, 8);
    }

    /** The partition Spark's {@code HashPartitioning} picks: {@code pmod(hash(key, 42), n)}. */
    public static <K, W> W partitionIds(Words<K, W> words, K key, int numPartitions) {
        return words.pmod(hashLong(words, key, SparkMurmur3.SPARK_SEED), numPartitions);
    }

    private static <K, W> W mixK1(Words<K, W> words, W k1) {
        W k = words.multiply(k1, C1);
        k = rotateLeft(words, k, 15);
        return words.multiply(k, C2);
    }

    /** Spark's {@code mixH1(h1, k1)}, given {@code h1 ^ k1}. */
    private static <K, W> W mixH1(Words<K, W> words, W h1XorK1) {
        W h = rotateLeft(words, h1XorK1, 13);
        return words.add(words.multiply(h, 5), 0xe6546b64);
    }

    private static <K, W> W fmix(Words<K, W> words, W h1, int length) {
        W h = words.xor(h1, length);
        h = words.xor(h, words.shiftRight(h, 16));
        h = words.multiply(h, 0x85ebca6b);
        h = words.xor(h, words.shiftRight(h, 13));
        h = words.multiply(h, 0xc2b2ae35);
        return words.xor(h, words.shiftRight(h, 16));
    }

    private static <K, W> W rotateLeft(Words<K, W> words, W w, int bits) {
        return words.or(words.shiftLeft(w, bits), words.shiftRight(w, 32 - bits));
    }

    /** The hash of one key, in Java ints: what the device computes for each row. */
    public static int hashLong(long key, int seed) {
        return hashLong(HostWords.INSTANCE, key, seed);
    }

    /** The formula on one key, in Java ints: what the device computes for each row. */
    public static int partitionOf(long key, int numPartitions) {
        return partitionIds(HostWords.INSTANCE, key, numPartitions);
    }

    /** One value at a time: Java's int arithmetic, which wraps as unsigned 32-bit arithmetic does. */
    private static final class HostWords implements Words<Long, Integer> {
        static final HostWords INSTANCE = new HostWords();

        @Override
        public Integer low32(Long key) {
            return (int) (long) key;
        }

        @Override
        public Integer high32(Long key) {
            return (int) (key >>> 32);
        }

        @Override
        public Integer multiply(Integer w, int constant) {
            return w * constant;
        }

        @Override
        public Integer add(Integer w, int constant) {
            return w + constant;
        }

        @Override
        public Integer xor(Integer a, Integer b) {
            return a ^ b;
        }

        @Override
        public Integer xor(Integer w, int constant) {
            return w ^ constant;
        }

        @Override
        public Integer shiftLeft(Integer w, int bits) {
            return w << bits;
        }

        @Override
        public Integer shiftRight(Integer w, int bits) {
            return w >>> bits;
        }

        @Override
        public Integer or(Integer a, Integer b) {
            return a | b;
        }

        @Override
        public Integer pmod(Integer w, int n) {
            int mod = w % n;
            return mod < 0 ? mod + n : mod;
        }
    }
}
