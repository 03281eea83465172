package dev.sluice.core.partition;

import dev.sluice.core.InvalidParameterException;
import dev.sluice.core.input.Mix;
import dev.sluice.core.input.SchemaSpec;
import java.util.Locale;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/** The partitioning schemes of the seed workloads. */
public enum Partitioning {
    /** Spark's {@code HashPartitioning} on {@code key}: Murmur3 (seed 42) of the long, non-negative modulo N. */
    HASH,
    /**
     * Spark's {@code RoundRobinPartitioning} ({@code df.repartition(200)}): rows dealt out in turn, starting from a
     * position chosen per map task.
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

        @Override
        public void assign(VectorSchemaRoot batch, int[] out) {
            int rows = batch.getRowCount();
            for (int i = 0; i < rows; i++) {
                position = position + 1 == n ? 0 : position + 1;
                out[i] = position;
            }
        }
    }
}
