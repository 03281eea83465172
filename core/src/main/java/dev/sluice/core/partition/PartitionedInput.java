package dev.sluice.core.partition;

import dev.sluice.core.input.MapTaskInput;
import dev.sluice.core.serde.ArrowIpcFormat;
import dev.sluice.spi.InputBatch;
import dev.sluice.spi.ShuffleRecord;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * A map task's input cut into shuffle records: for each batch, in input order, one record per non-empty partition in
 * increasing partition order. Each batch is reordered by partition once (a gather, as a GPU hash partition does),
 * then every partition's rows are a zero-copy slice of it ({@code TransferPair.splitAndTransfer}). Owns the slices;
 * {@link #records} wraps them as payloads of a stream format.
 */
public final class PartitionedInput implements AutoCloseable {
    private final int numPartitions;
    private final List<Slice> slices;

    /** The rows of one batch that belong to one partition. */
    private static final class Slice {
        final int partitionId;
        final VectorSchemaRoot rows;
        /** Index of the input batch the rows come from. */
        final int batch;

        Slice(int partitionId, VectorSchemaRoot rows, int batch) {
            this.partitionId = partitionId;
            this.rows = rows;
            this.batch = batch;
        }

        long bytes() {
            long bytes = 0;
            for (FieldVector v : rows.getFieldVectors()) {
                bytes += v.getBufferSize();
            }
            return bytes;
        }
    }

    private PartitionedInput(int numPartitions, List<Slice> slices) {
        this.numPartitions = numPartitions;
        this.slices = Collections.unmodifiableList(slices);
    }

    public static PartitionedInput partition(MapTaskInput input, Partitioner partitioner, BufferAllocator allocator) {
        return partition(input.batches(), partitioner, allocator);
    }

    /** The same for any batches of one schema, in order (the network boundary's re-batched inputs); they stay the caller's. */
    public static PartitionedInput partition(List<VectorSchemaRoot> batches, Partitioner partitioner,
                                             BufferAllocator allocator) {
        List<Slice> records = new ArrayList<>();
        int n = partitioner.numPartitions();
        int maxRows = 0;
        for (VectorSchemaRoot batch : batches) {
            maxRows = Math.max(maxRows, batch.getRowCount());
        }
        int[] partitionOfRow = new int[maxRows];
        try {
            for (int b = 0; b < batches.size(); b++) {
                VectorSchemaRoot batch = batches.get(b);
                int rows = batch.getRowCount();
                partitioner.assign(batch, partitionOfRow);
                int[] start = partitionStarts(partitionOfRow, rows, n);
                try (VectorSchemaRoot grouped = groupByPartition(batch, partitionOfRow, start, allocator)) {
                    for (int p = 0; p < n; p++) {
                        int count = start[p + 1] - start[p];
                        if (count > 0) {
                            records.add(new Slice(p, grouped.slice(start[p], count), b));
                        }
                    }
                }
            }
        } catch (RuntimeException | Error e) {
            closeAll(records);
            throw e;
        }
        return new PartitionedInput(n, records);
    }

    /**
     * Where each partition starts once {@code rows} rows are grouped by partition: partition {@code p} is rows
     * {@code [start[p], start[p + 1])}, given the partition of each row in {@code partitionOfRow[0..rows)}.
     */
    public static int[] partitionStarts(int[] partitionOfRow, int rows, int numPartitions) {
        int[] start = new int[numPartitions + 1];
        for (int i = 0; i < rows; i++) {
            start[partitionOfRow[i] + 1]++;
        }
        for (int p = 0; p < numPartitions; p++) {
            start[p + 1] += start[p];
        }
        return start;
    }

    /**
     * The batch's rows gathered in partition order, stable within a partition, in a new batch the caller closes;
     * {@code start} is {@link #partitionStarts}'. The batch stays the caller's and is not changed.
     */
    public static VectorSchemaRoot groupByPartition(VectorSchemaRoot batch, int[] partitionOfRow, int[] start,
                                                     BufferAllocator allocator) {
        int rows = batch.getRowCount();
        int[] rowAt = new int[rows];
        int[] next = start.clone();
        boolean inOrder = true;
        for (int i = 0; i < rows; i++) {
            int to = next[partitionOfRow[i]]++;
            rowAt[to] = i;
            inOrder &= to == i;
        }
        VectorSchemaRoot grouped = VectorSchemaRoot.create(batch.getSchema(), allocator);
        try {
            List<FieldVector> from = batch.getFieldVectors();
            List<FieldVector> to = grouped.getFieldVectors();
            for (int c = 0; c < from.size(); c++) {
                if (inOrder) {
                    from.get(c).makeTransferPair(to.get(c)).splitAndTransfer(0, rows);
                } else {
                    Gather.gather(from.get(c), to.get(c), rowAt);
                }
            }
            grouped.setRowCount(rows);
            return grouped;
        } catch (RuntimeException | Error e) {
            grouped.close();
            throw e;
        }
    }

    /**
     * The same records, each cut to its first {@code 1/divisor} of rows (at least one): the same partitions and
     * record count, a fraction of the bytes. The cuts share this input's buffers and own only their slices.
     */
    public PartitionedInput prefixes(int divisor) {
        if (divisor < 1) {
            throw new IllegalArgumentException("divisor must be >= 1, not " + divisor);
        }
        List<Slice> cut = new ArrayList<>();
        try {
            for (Slice slice : slices) {
                cut.add(new Slice(slice.partitionId,
                        slice.rows.slice(0, Math.max(1, slice.rows.getRowCount() / divisor)), slice.batch));
            }
        } catch (RuntimeException | Error e) {
            closeAll(cut);
            throw e;
        }
        return new PartitionedInput(numPartitions, cut);
    }

    public int numPartitions() {
        return numPartitions;
    }

    /**
     * The records, in order, as payloads of {@code format}; they share this input's slices. The records of one input
     * batch share its {@link InputBatch}: the bytes of its slices, the host copy a GPU map task would hold.
     */
    public List<ShuffleRecord> records(ArrowIpcFormat format) {
        Map<Integer, Long> batchBytes = new HashMap<>();
        for (Slice slice : slices) {
            batchBytes.merge(slice.batch, slice.bytes(), Long::sum);
        }
        Map<Integer, InputBatch> batches = new HashMap<>();
        List<ShuffleRecord> records = new ArrayList<>(slices.size());
        for (Slice slice : slices) {
            InputBatch batch = batches.computeIfAbsent(slice.batch, b -> new InputBatch(batchBytes.get(b)));
            records.add(new ShuffleRecord(slice.partitionId, format.payload(slice.rows), batch));
        }
        return Collections.unmodifiableList(records);
    }

    /** The partition of record {@code i}. */
    public int partitionOf(int i) {
        return slices.get(i).partitionId;
    }

    /** The rows of record {@code i}: a slice this input owns; read it, do not close it. */
    public VectorSchemaRoot rowsOf(int i) {
        return slices.get(i).rows;
    }

    /** Number of records. */
    public int size() {
        return slices.size();
    }

    /** Rows of all records. */
    public long rows() {
        long rows = 0;
        for (Slice slice : slices) {
            rows += slice.rows.getRowCount();
        }
        return rows;
    }

    /** Arrow buffer bytes of all records. */
    public long bytes() {
        long bytes = 0;
        for (Slice slice : slices) {
            bytes += slice.bytes();
        }
        return bytes;
    }

    private static void closeAll(List<Slice> slices) {
        AutoCloseables.closeNoChecked(() -> AutoCloseables.close(slices.stream().map(s -> s.rows).toArray(AutoCloseable[]::new)));
    }

    @Override
    public void close() {
        closeAll(slices);
    }
}
