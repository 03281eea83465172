package dev.sluice.gpu;

import ai.rapids.cudf.ColumnVector;
import ai.rapids.cudf.Cuda;
import ai.rapids.cudf.HostColumnVector;
import ai.rapids.cudf.HostMemoryAllocator;
import ai.rapids.cudf.PartitionedTable;
import ai.rapids.cudf.Table;
import dev.sluice.core.input.SchemaSpec;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A map task's batches on the device, as the seed's GPU task holds them when it reaches the shuffle: each Arrow batch
 * uploaded once as a cuDF table ({@link UploadRoute}), outside any timing, and owned here until closed.
 */
public final class DeviceInput implements AutoCloseable {
    private final Schema schema;
    private final List<Table> tables;
    private final int keyColumn;

    private DeviceInput(Schema schema, List<Table> tables) {
        this.schema = schema;
        this.tables = tables;
        this.keyColumn = schema.getFields().indexOf(schema.findField(SchemaSpec.KEY_COLUMN));
    }

    public static DeviceInput upload(List<VectorSchemaRoot> batches, UploadRoute route) {
        if (batches.isEmpty()) {
            throw new IllegalArgumentException("a map task's input has at least one batch");
        }
        List<Table> tables = new ArrayList<>();
        try {
            for (VectorSchemaRoot batch : batches) {
                ColumnVector[] columns = route.upload(batch);
                try {
                    tables.add(new Table(columns));
                } finally {
                    // The table holds its own references.
                    CudfColumns.closeAll(columns);
                }
            }
            return new DeviceInput(batches.get(0).getSchema(), tables);
        } catch (RuntimeException | Error e) {
            CudfColumns.closeAll(tables.toArray(new AutoCloseable[0]));
            throw e;
        }
    }

    public int batches() {
        return tables.size();
    }

    public Schema schema() {
        return schema;
    }

    public long rows(int batch) {
        return tables.get(batch).getRowCount();
    }

    /** The key column of batch {@code b} on the device, owned by this input. */
    ColumnVector keys(int batch) {
        return tables.get(batch).getColumn(keyColumn);
    }

    /** Batch {@code b} copied back to the host as it is on the device, for checking the upload. */
    public HostColumnVector[] copyToHost(int batch) {
        Table table = tables.get(batch);
        HostColumnVector[] host = new HostColumnVector[table.getNumberOfColumns()];
        try {
            for (int c = 0; c < host.length; c++) {
                host[c] = table.getColumn(c).copyToHost();
            }
            return host;
        } catch (RuntimeException | Error e) {
            CudfColumns.closeAll(host);
            throw e;
        }
    }

    /**
     * spark-rapids' map side for batch {@code b}: partition on the device, then copy every column of the partitioned
     * table to host memory once ({@code copyToHostAsync} into {@code memory}, one sync), as
     * {@code GpuPartitioning.sliceInternalOnCpuAndClose} does. The time of both steps and the bytes copied are added
     * to {@code times}.
     */
    public HostPartitions partitionToHost(int batch, GpuPartitioning partitioning, int numPartitions,
                                          int startPartition, HostMemory memory, DeviceTimes times) {
        Table table = tables.get(batch);
        long start = System.nanoTime();
        try (PartitionedTable partitioned = partitioning.onDevice().partition(table, keyColumn, numPartitions, startPartition)) {
            Cuda.DEFAULT_STREAM.sync();
            long partitionedAt = System.nanoTime();
            int columns = (int) partitioned.getNumberOfColumns();
            HostColumnVector[] host = new HostColumnVector[columns];
            long bytes = 0;
            try {
                for (int c = 0; c < columns; c++) {
                    ColumnVector column = partitioned.getColumn(c);
                    // spark-rapids computes null counts before the copy (a work-around it names in the code).
                    column.getNullCount();
                    bytes += column.getDeviceMemorySize();
                }
                HostMemoryAllocator allocator = memory.allocator();
                long copyStart = System.nanoTime();
                for (int c = 0; c < columns; c++) {
                    host[c] = partitioned.getColumn(c).copyToHostAsync(Cuda.DEFAULT_STREAM, allocator);
                }
                Cuda.DEFAULT_STREAM.sync();
                long copied = System.nanoTime();
                times.add(partitionedAt - start, copied - copyStart, bytes);
            } catch (RuntimeException | Error e) {
                CudfColumns.closeAll(host);
                throw e;
            }
            return HostPartitions.of(host, partitioned.getPartitions(), numPartitions, partitioned.getRowCount());
        }
    }

    @Override
    public void close() {
        CudfColumns.closeAll(tables.toArray(new AutoCloseable[0]));
        tables.clear();
    }
}
