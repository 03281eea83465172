package dev.sluice.gpu;

import dev.sluice.core.input.Mix;
import dev.sluice.core.input.RowDigest;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Each partition's rows as a multiset: a count and two sums of mixed row hashes ({@link RowDigest}'s, the same as
 * the CPU path's), which do not depend on the order rows arrive in. The GPU's partition scatter leaves rows in an
 * undefined order inside a partition, so this is what a GPU map output is checked against; a row lost, doubled,
 * changed or sent to another partition changes a sum.
 */
public final class RowMultisets {
    private static final long SECOND = 0x632be59bd9b4e019L;
    private final long[] rows;
    private final long[] sums;
    private final long[] otherSums;
    private long[] hashes = new long[0];

    /** What each partition of a GPU map task over {@code batches} must hold. */
    public static RowMultisets expected(List<VectorSchemaRoot> batches, GpuPartitioning partitioning,
                                        int numPartitions, int startPartition) {
        RowMultisets expected = new RowMultisets(numPartitions);
        int[] partitionOf = new int[0];
        for (VectorSchemaRoot batch : batches) {
            if (partitionOf.length < batch.getRowCount()) {
                partitionOf = new int[batch.getRowCount()];
            }
            partitioning.assign(batch, numPartitions, startPartition, partitionOf);
            expected.add(batch, partitionOf);
        }
        return expected;
    }

    public RowMultisets(int numPartitions) {
        rows = new long[numPartitions];
        sums = new long[numPartitions];
        otherSums = new long[numPartitions];
    }

    /** Adds the rows of {@code batch}, row {@code i} to partition {@code partitionOf[i]}. */
    public void add(VectorSchemaRoot batch, int[] partitionOf) {
        long[] rowHashes = hashes(batch);
        for (int i = 0; i < batch.getRowCount(); i++) {
            add(partitionOf[i], rowHashes[i]);
        }
    }

    /** Adds every row of {@code batch} to {@code partition}. */
    public void add(VectorSchemaRoot batch, int partition) {
        long[] rowHashes = hashes(batch);
        for (int i = 0; i < batch.getRowCount(); i++) {
            add(partition, rowHashes[i]);
        }
    }

    /** {@link RowDigest}'s hash of each row of {@code batch}, in a buffer reused from batch to batch. */
    private long[] hashes(VectorSchemaRoot batch) {
        if (hashes.length < batch.getRowCount()) {
            hashes = new long[batch.getRowCount()];
        }
        RowDigest.rowHashes(batch, hashes);
        return hashes;
    }

    private void add(int partition, long rowHash) {
        rows[partition]++;
        sums[partition] += Mix.mix64(rowHash);
        otherSums[partition] += Mix.mix64(rowHash ^ SECOND);
    }

    public int numPartitions() {
        return rows.length;
    }

    public long rows(int partition) {
        return rows[partition];
    }

    public long totalRows() {
        return Arrays.stream(rows).sum();
    }

    /** Whether partition {@code p} holds the same rows in both. */
    public boolean sameRows(int partition, RowMultisets other) {
        return rows[partition] == other.rows[partition] && sums[partition] == other.sums[partition]
                && otherSums[partition] == other.otherSums[partition];
    }

    /** e.g. {@code 1024 rows (multiset 5e1f...)}. */
    public String describe(int partition) {
        return rows[partition] + " rows (multiset " + Long.toHexString(sums[partition]) + "/"
                + Long.toHexString(otherSums[partition]) + ")";
    }
}
