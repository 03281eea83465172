package dev.sluice.gpu;

import ai.rapids.cudf.HostColumnVector;
import ai.rapids.cudf.Schema;
import com.nvidia.spark.rapids.jni.kudo.KudoHostMergeResult;
import com.nvidia.spark.rapids.jni.kudo.KudoSerializer;
import com.nvidia.spark.rapids.jni.kudo.KudoTable;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.spi.Payload;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * kudo's tables ({@link KudoPayload}), spark-rapids' default serializer: one {@link KudoSerializer} per map task,
 * made from the batches' schema as {@code GpuColumnarBatchSerializer} makes it from the exchange's data types. A
 * reducer reads {@code KudoTable.from} until the stream ends and merges the tables on the host
 * ({@code KudoSerializer.mergeOnHost}, as {@code GpuShuffleCoalesceExec} does before its copy to the device); this
 * reads the merged columns from that host buffer ({@link KudoMergedColumns}) instead of copying it to a GPU.
 */
public final class KudoFormat extends GpuFormat {
    private final KudoSerializer kudo;
    private final org.apache.arrow.vector.types.pojo.Schema arrowSchema;

    /**
     * @param schema the batches' schema: every column one of the types {@link CudfColumns#dtypeOf} maps
     */
    public KudoFormat(ShuffleCodec codec, org.apache.arrow.vector.types.pojo.Schema schema) {
        super(codec, GpuSerializer.KUDO);
        Schema.Builder cudf = Schema.builder();
        for (Field field : schema.getFields()) {
            cudf.column(CudfColumns.dtypeOf(field), field.getName());
        }
        this.kudo = new KudoSerializer(cudf.build());
        this.arrowSchema = schema;
    }

    @Override
    public GpuSerializer serializer() {
        return GpuSerializer.KUDO;
    }

    /**
     * @throws IllegalArgumentException where {@code columns} are not of this format's schema (kudo would write them
     *     anyway, and its reader would misread them)
     */
    @Override
    Payload payload(HostColumnVector[] columns, int rowOffset, int rows) {
        List<Field> fields = arrowSchema.getFields();
        if (columns.length != fields.size()) {
            throw new IllegalArgumentException(columns.length + " columns for kudo's schema of " + fields.size()
                    + ": " + arrowSchema);
        }
        for (int c = 0; c < columns.length; c++) {
            if (!columns[c].getType().equals(CudfColumns.dtypeOf(fields.get(c)))) {
                throw new IllegalArgumentException("column " + c + " is " + columns[c].getType() + ", kudo's schema "
                        + "says " + fields.get(c));
            }
        }
        return new KudoPayload(kudo, columns, rowOffset, rows, codec());
    }

    @Override
    long readTables(InputStream plain, int partition, RowMultisets into,
                    org.apache.arrow.vector.types.pojo.Schema schema, BufferAllocator allocator) throws IOException {
        DataInputStream in = new DataInputStream(plain);
        List<KudoTable> tables = new ArrayList<>();
        try {
            Optional<KudoTable> table;
            while ((table = KudoTable.from(in)).isPresent()) {
                tables.add(table.get());
            }
            if (tables.isEmpty()) {
                return 0;
            }
            KudoHostMergeResult merged = kudo.mergeOnHost(tables.toArray(new KudoTable[0]));
            try {
                HostColumnVector[] columns = KudoMergedColumns.of(merged);
                try (VectorSchemaRoot rows = CudfColumns.toArrow(columns, schema, allocator)) {
                    into.add(rows, partition);
                } finally {
                    CudfColumns.closeAll(columns);
                }
            } finally {
                CudfColumns.closeAll(new AutoCloseable[] {merged});
            }
            return tables.size();
        } catch (RuntimeException e) {
            // KudoTable.from wraps a body cut short in a RuntimeException: the stream ended early.
            if (e.getCause() instanceof EOFException) {
                throw (EOFException) e.getCause();
            }
            throw e;
        } finally {
            CudfColumns.closeAll(tables.toArray(new AutoCloseable[0]));
        }
    }
}
