package dev.sluice.gpu;

import ai.rapids.cudf.HostColumnVector;
import dev.sluice.core.partition.PartitionedInput;
import dev.sluice.spi.InputBatch;
import dev.sluice.spi.ShuffleRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * One partitioned batch on the host: its columns, copied once from the device with rows grouped by partition, and
 * where each partition starts, as spark-rapids' {@code sliceInternalOnCpuAndClose} holds it. Each non-empty partition
 * becomes one record over a slice of these columns; the columns stay here until this is closed, after the map output
 * that read them is committed.
 */
public final class HostPartitions implements AutoCloseable {
    private final HostColumnVector[] columns;
    /** Partition {@code p} is rows {@code [start[p], start[p + 1])}. */
    private final int[] start;

    private HostPartitions(HostColumnVector[] columns, int[] start) {
        this.columns = columns;
        this.start = start;
    }

    /**
     * Takes ownership of {@code columns}, grouped by partition, given cuDF's partition offsets ({@code
     * PartitionedTable.getPartitions()}: where each partition starts, with or without the row count at the end).
     */
    static HostPartitions of(HostColumnVector[] columns, int[] offsets, int numPartitions, long rows) {
        if (offsets.length != numPartitions && offsets.length != numPartitions + 1) {
            CudfColumns.closeAll(columns);
            throw new IllegalStateException(offsets.length + " partition offsets for " + numPartitions + " partitions");
        }
        int[] start = Arrays.copyOf(offsets, numPartitions + 1);
        start[numPartitions] = Math.toIntExact(rows);
        for (int p = 0; p < numPartitions; p++) {
            if (start[p] > start[p + 1]) {
                CudfColumns.closeAll(columns);
                throw new IllegalStateException("partition offsets out of order: " + Arrays.toString(offsets));
            }
        }
        return new HostPartitions(columns, start);
    }

    /**
     * What the device makes of {@code batch}, made on the host instead: rows assigned as {@code partitioning} assigns
     * them, gathered in partition order (stable), copied into host columns of {@code memory}. For tests and machines
     * without a GPU; the rows of each partition are the device's, in an order the device may not keep.
     */
    public static HostPartitions onHost(VectorSchemaRoot batch, GpuPartitioning partitioning, int numPartitions,
                                        int startPartition, HostMemory memory, BufferAllocator allocator) {
        int rows = batch.getRowCount();
        int[] partitionOf = new int[rows];
        partitioning.assign(batch, numPartitions, startPartition, partitionOf);
        int[] start = PartitionedInput.partitionStarts(partitionOf, rows, numPartitions);
        try (VectorSchemaRoot grouped = PartitionedInput.groupByPartition(batch, partitionOf, start, allocator)) {
            return new HostPartitions(CudfColumns.toHost(grouped, memory), start);
        }
    }

    public int numPartitions() {
        return start.length - 1;
    }

    public long rows() {
        return start[start.length - 1];
    }

    public long rows(int partition) {
        return start[partition + 1] - start[partition];
    }

    /** Bytes of the host columns (values, validity, offsets). */
    public long hostBytes() {
        long bytes = 0;
        for (HostColumnVector column : columns) {
            bytes += column.getHostMemorySize();
        }
        return bytes;
    }

    /** One record per non-empty partition, in partition order, each a slice of these columns in {@code format}. */
    public List<ShuffleRecord> records(GpuFormat format) {
        // The host copy is one batch, freed upstream once every slice of it is serialized.
        InputBatch batch = new InputBatch(hostBytes());
        List<ShuffleRecord> records = new ArrayList<>();
        for (int p = 0; p < numPartitions(); p++) {
            int count = start[p + 1] - start[p];
            if (count > 0) {
                records.add(new ShuffleRecord(p, format.payload(columns, start[p], count), batch));
            }
        }
        return Collections.unmodifiableList(records);
    }

    @Override
    public void close() {
        CudfColumns.closeAll(columns);
    }
}
