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
public final class Reference {
    private final long[] rows;
    private final long[] digests;

    private Reference(long[] rows, long[] digests) {
        this.rows = rows;
        this.digests = digests;
    }

    public static Reference compute(MapTaskInput input, Partitioner partitioner) {
        int n = partitioner.numPartitions();
        long[] rows = new long[n];
        long[] digests = new long[n];
        int[] partitionOfRow = new int[input.spec().rowsPerBatch];
        long[] rowHashes = new long[input.spec().rowsPerBatch];
        for (VectorSchemaRoot batch : input.batches()) {
            partitioner.assign(batch, partitionOfRow);
            RowDigest.rowHashes(batch, rowHashes);
            for (int i = 0; i < batch.getRowCount(); i++) {
                int p = partitionOfRow[i];
                rows[p]++;
                digests[p] = RowDigest.fold(digests[p], rowHashes[i]);
            }
        }
        return new Reference(rows, digests);
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
