package dev.sluice.core.partition;

import dev.sluice.core.input.Mix;
import dev.sluice.core.input.SchemaSpec;
import dev.sluice.spi.InvalidParameterException;
import java.util.Locale;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/** The partitioning schemes of the seed workloads. */
public enum Partitioning {
    /** Spark's {@code HashPartitioning} on {@code key}: Murmur3 (seed 42) of the long, non-negative modulo N. */
    HASH,
    /**
     * Spark's {@code RoundRobinPartitioning} ({@code df.repartition(200)}): rows dealt out in turn, starting from a
     * position chosen per map task, so each partition gets the same number of rows give or take one. Which rows go
     * where does not matter for generated rows, which are independent and identically distributed: the dealer hands
     * each partition a contiguous run of the rows with the counts the deal gives. The batch is then already in
     * partition order, as a GPU's gather leaves it, and needs no copy.
     */
    ROUNDROBIN;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Partitioning parse(String parameter, String value) {
        for (Partitioning p : values()) {
            if (p.label().equals(value)) {
                return p;
            }
        }
        throw new InvalidParameterException(parameter, value, "hash or roundrobin");
    }

    /** A fresh partitioner for one map task; {@code mapSeed} picks round robin's starting position. */
    public Partitioner create(int numPartitions, long mapSeed) {
        if (numPartitions < 1) {
            throw new InvalidParameterException("partitions", numPartitions, "an integer >= 1");
        }
        return this == HASH ? new Hash(numPartitions) : new RoundRobin(numPartitions, mapSeed);
    }

    private static final class Hash implements Partitioner {
        private final int n;

        Hash(int n) {
            this.n = n;
        }

        @Override
        public int numPartitions() {
            return n;
        }

        @Override
        public void assign(VectorSchemaRoot batch, int[] out) {
            BigIntVector keys = (BigIntVector) batch.getVector(SchemaSpec.KEY_COLUMN);
            int rows = batch.getRowCount();
            for (int i = 0; i < rows; i++) {
                out[i] = SparkMurmur3.partitionOf(keys.get(i), n);
            }
        }
    }

    private static final class RoundRobin implements Partitioner {
        private final int n;
        private int position;

        RoundRobin(int n, long mapSeed) {
            this.n = n;
            // Spark starts at XORShiftRandom(partitionId).nextInt(n); any per-task start in [0, n) deals the same way.
            this.position = (int) Long.remainderUnsigned(Mix.mix64(mapSeed), n);
        }

        @Override
        public int numPartitions() {
            return n;
        }

        /**
         * The deal gives {@code rows / n} rows to every partition and one more to the {@code rows % n} partitions
         * after the current position (wrapping); partition 0 gets the first run of rows, partition 1 the next.
         */
        @Override
        public void assign(VectorSchemaRoot batch, int[] out) {
            int rows = batch.getRowCount();
            int each = rows / n;
            int extra = rows % n;
            int row = 0;
            for (int p = 0; p < n; p++) {
                int distance = Math.floorMod(p - position - 1, n);
                int count = each + (distance < extra ? 1 : 0);
                for (int i = 0; i < count; i++) {
                    out[row++] = p;
                }
            }
            position = (int) ((position + (long) rows) % n);
        }
    }
}
