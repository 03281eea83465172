package dev.sluice.core.verify;

import dev.sluice.core.input.MapTaskInput;
import dev.sluice.core.input.RowDigest;
import dev.sluice.core.partition.Partitioner;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * What each partition of a map output must hold: its row count and an order-sensitive digest of its rows. Computed
 * from the input and a fresh partitioner row by row, without the slicing, serialization or any strategy, so that it
 * can judge all of them.
 */
public final class Expected {
    private final long[] rows;
    private final long[] digests;

    private Expected(long[] rows, long[] digests) {
        this.rows = rows;
        this.digests = digests;
    }

    public static Expected compute(MapTaskInput input, Partitioner partitioner) {
        Builder builder = new Builder(partitioner);
        long[] rowHashes = new long[input.maxBatchRows()];
        for (VectorSchemaRoot batch : input.batches()) {
            RowDigest.rowHashes(batch, rowHashes);
            builder.batch(batch, rowHashes);
        }
        return builder.build();
    }

    /**
     * A reference built batch by batch, in input order, from row hashes already computed (the generator's, so that
     * rows are hashed once); the partitioner must be a fresh one of the map task.
     */
    public static final class Builder implements dev.sluice.core.input.BatchGenerator.BatchListener {
        private final Partitioner partitioner;
        private final long[] rows;
        private final long[] digests;
        private int[] partitionOfRow = new int[0];

        public Builder(Partitioner partitioner) {
            this.partitioner = partitioner;
            this.rows = new long[partitioner.numPartitions()];
            this.digests = new long[partitioner.numPartitions()];
        }

        @Override
        public void batch(VectorSchemaRoot batch, long[] rowHashes) {
            int count = batch.getRowCount();
            if (partitionOfRow.length < count) {
                partitionOfRow = new int[count];
            }
            partitioner.assign(batch, partitionOfRow);
            for (int i = 0; i < count; i++) {
                int p = partitionOfRow[i];
                rows[p]++;
                digests[p] = RowDigest.fold(digests[p], rowHashes[i]);
            }
        }

        public Expected build() {
            return new Expected(rows.clone(), digests.clone());
        }
    }

    public int numPartitions() {
        return rows.length;
    }

    public long rows(int partition) {
        return rows[partition];
    }

    public long digest(int partition) {
        return digests[partition];
    }

    public long totalRows() {
        long total = 0;
        for (long r : rows) {
            total += r;
        }
        return total;
    }

    public int nonEmptyPartitions() {
        int count = 0;
        for (long r : rows) {
            count += r > 0 ? 1 : 0;
        }
        return count;
    }
}
