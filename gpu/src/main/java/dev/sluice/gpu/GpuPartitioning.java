package dev.sluice.gpu;

import dev.sluice.core.input.SchemaSpec;
import dev.sluice.core.partition.SparkMurmur3;
import dev.sluice.spi.InvalidParameterException;
import java.util.Locale;
import java.util.Random;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * How a GPU map task partitions a batch, as spark-rapids does, on the device ({@link #partition}) and, row by row on
 * the host, the partition each row must land in ({@link #assign}), which verification and the host-only tests use.
 */
public enum GpuPartitioning {
    /**
     * {@code GpuHashPartitioningBase}: Spark's Murmur3 (seed 42) of the key, {@code pmod(numPartitions)}, then
     * {@code Table.partition(ids, n)}, which scatters rows with atomics: the order of rows inside a partition is
     * undefined.
     */
    HASH {
        @Override
        DevicePartitioner onDevice() {
            return DevicePartitioner.HASH;
        }

        @Override
        public void assign(VectorSchemaRoot batch, int numPartitions, int startPartition, int[] out) {
            BigIntVector keys = (BigIntVector) batch.getVector(SchemaSpec.KEY_COLUMN);
            for (int i = 0; i < batch.getRowCount(); i++) {
                out[i] = SparkMurmur3.partitionOf(keys.get(i), numPartitions);
            }
        }
    },
    /**
     * {@code GpuRoundRobinPartitioning}: {@code Table.roundRobinPartition(n, start)}, row {@code i} of a batch to
     * partition {@code (start + i) % n}, rows kept in order. Upstream computes {@code start} anew for every batch
     * from {@code new Random(partitionId)}, so every batch of a task starts at the same partition (Spark's CPU
     * exchange carries its position from row to row instead).
     */
    ROUNDROBIN {
        @Override
        DevicePartitioner onDevice() {
            return DevicePartitioner.ROUND_ROBIN;
        }

        @Override
        public void assign(VectorSchemaRoot batch, int numPartitions, int startPartition, int[] out) {
            for (int i = 0; i < batch.getRowCount(); i++) {
                out[i] = (int) ((startPartition + (long) i) % numPartitions);
            }
        }

        @Override
        public int startPartition(long mapId, int numPartitions) {
            // GpuRoundRobinPartitioning.getStartPartition: Spark's (random.nextInt(n) + 1) % n, with the task's
            // partition id as the seed.
            return (new Random(mapId).nextInt(numPartitions) + 1) % numPartitions;
        }
    };

    /**
     * What partitions on the device. Kept behind an interface so that this enum loads without cudf-java on the class
     * path (the CPU side of the GPU benchmark uses it there).
     */
    abstract DevicePartitioner onDevice();

    /** The partition of each row of {@code batch} into {@code out[0..rows)}, as the device assigns them. */
    public abstract void assign(VectorSchemaRoot batch, int numPartitions, int startPartition, int[] out);

    /** Where round robin starts in every batch of map task {@code mapId}; 0 for hash, which has no start. */
    public int startPartition(long mapId, int numPartitions) {
        return 0;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static GpuPartitioning parse(String parameter, String value) {
        for (GpuPartitioning p : values()) {
            if (p.label().equals(value)) {
                return p;
            }
        }
        throw new InvalidParameterException(parameter, value, "hash or roundrobin");
    }
}
