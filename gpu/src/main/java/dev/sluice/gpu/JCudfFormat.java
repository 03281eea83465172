package dev.sluice.gpu;

import ai.rapids.cudf.HostColumnVector;
import ai.rapids.cudf.HostMemoryBuffer;
import ai.rapids.cudf.JCudfSerialization;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.spi.Payload;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * JCudfSerialization's tables ({@link JCudfPayload}), spark-rapids' serializer before kudo and still its choice with
 * {@code spark.rapids.shuffle.kudo.serializer.enabled=false}. A reader reads a table header, then the table, until the
 * stream ends, and unpacks each table into host columns.
 */
public final class JCudfFormat extends GpuFormat {
    public JCudfFormat(ShuffleCodec codec) {
        super(codec, GpuSerializer.JCUDF);
    }

    @Override
    public GpuSerializer serializer() {
        return GpuSerializer.JCUDF;
    }

    @Override
    Payload payload(HostColumnVector[] columns, int rowOffset, int rows) {
        return new JCudfPayload(columns, rowOffset, rows, codec());
    }

    @Override
    long readTables(InputStream plain, int partition, RowMultisets into, Schema schema, BufferAllocator allocator)
            throws IOException {
        DataInputStream in = new DataInputStream(plain);
        long tables = 0;
        while (true) {
            JCudfSerialization.SerializedTableHeader header = new JCudfSerialization.SerializedTableHeader(in);
            if (!header.wasInitialized()) {
                return tables;
            }
            tables++;
            try (HostMemoryBuffer buffer = HostMemoryBuffer.allocate(Math.max(1, header.getDataLen()), false)) {
                JCudfSerialization.readTableIntoBuffer(in, header, buffer);
                if (!header.wasDataRead()) {
                    throw new IllegalStateException("table " + tables + " ended early");
                }
                HostColumnVector[] columns = JCudfSerialization.unpackHostColumnVectors(header, buffer);
                try (VectorSchemaRoot rows = CudfColumns.toArrow(columns, schema, allocator)) {
                    into.add(rows, partition);
                } finally {
                    CudfColumns.closeAll(columns);
                }
            }
        }
    }
}
