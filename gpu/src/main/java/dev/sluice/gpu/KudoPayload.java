package dev.sluice.gpu;

import ai.rapids.cudf.DType;
import ai.rapids.cudf.HostColumnVector;
import com.nvidia.spark.rapids.jni.kudo.KudoSerializer;
import com.nvidia.spark.rapids.jni.kudo.KudoTableHeader;
import dev.sluice.core.serde.ShuffleCodec;
import java.io.IOException;
import java.io.OutputStream;

/**
 * One partition's rows of one GPU batch, as spark-rapids' kudo serializer writes them ({@code KudoSerializerInstance}
 * in {@code GpuColumnarBatchSerializer}): {@code kudo.writeToStreamWithMetrics(hostColumns, out, rowOffset, numRows)}
 * over the host copy of the partitioned batch, then compressed by the map task's codec (Spark's
 * {@code serializerManager.wrapStream} per record in the threaded writer). kudo copies the slice's buffers as they are
 * (validity from the byte holding the first row's bit, string offsets not rebased) and leaves the fix-up to the
 * reader's merge. The host columns belong to the batch's {@link HostPartitions}, which outlives the writer.
 */
public final class KudoPayload extends HostTablePayload {
    private final KudoSerializer kudo;

    KudoPayload(KudoSerializer kudo, HostColumnVector[] columns, int rowOffset, int rows, ShuffleCodec codec) {
        // kudo refuses numRows 0 (spark-rapids writes a row-count-only record for a batch without columns).
        super(columns, rowOffset, recordRows(rows), codec, serializedSize(columns, rowOffset, rows));
        this.kudo = kudo;
    }

    /**
     * The bytes kudo writes for rows {@code [rowOffset, rowOffset + rows)} of flat {@code columns}, by its format
     * ({@code KudoSerializer}'s documentation): the header (seven ints and one validity bit per column); each
     * column's validity bytes that hold the rows' bits, the header and validity padded together to 4 bytes; each
     * string column's {@code rows + 1} offsets; then values (fixed width) and string bytes, padded to 4. Tests check
     * it against the bytes written.
     */
    static long serializedSize(HostColumnVector[] columns, int rowOffset, int rows) {
        long header = KudoTableHeader.getSerializedSize((columns.length + 7) / 8);
        long validity = 0;
        long offsets = 0;
        long data = 0;
        for (HostColumnVector column : columns) {
            if (column.hasValidityVector()) {
                validity += (rowOffset + rows - 1) / 8 - rowOffset / 8 + 1;
            }
            if (column.getType().equals(DType.STRING)) {
                offsets += (rows + 1L) * Integer.BYTES;
                data += column.getOffsets().getInt((long) (rowOffset + rows) * Integer.BYTES)
                        - column.getOffsets().getInt((long) rowOffset * Integer.BYTES);
            } else {
                data += (long) column.getType().getSizeInBytes() * rows;
            }
        }
        return padTo4(header + validity) + offsets + padTo4(data);
    }

    private static long padTo4(long bytes) {
        return (bytes + 3) / 4 * 4;
    }

    @Override
    void serialize(OutputStream out) throws IOException {
        // A plain OutputStream, as upstream's serialization stream hands kudo: kudo wraps it in a DataOutputStream
        // over a BufferedOutputStream (8 KiB), copies the buffers through a 1 KiB array, and flushes at the end.
        try {
            kudo.writeToStreamWithMetrics(columns, out, rowOffset, rows);
        } catch (RuntimeException e) {
            // kudo wraps every failure, the channel's included, in a RuntimeException: a write failure goes back as one.
            if (e.getCause() instanceof IOException) {
                throw (IOException) e.getCause();
            }
            throw e;
        }
    }
}
