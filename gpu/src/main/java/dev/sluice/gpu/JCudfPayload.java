package dev.sluice.gpu;

import ai.rapids.cudf.HostColumnVector;
import ai.rapids.cudf.JCudfSerialization;
import dev.sluice.core.serde.ShuffleCodec;
import java.io.IOException;
import java.io.OutputStream;

/**
 * One partition's rows of one GPU batch, as spark-rapids' serializer writes them
 * ({@code GpuColumnarBatchSerializer}): {@code JCudfSerialization.writeToStream(hostColumns, out, rowOffset, numRows)}
 * over the host copy of the partitioned batch, then compressed by the map task's codec (Spark's
 * {@code serializerManager.wrapStream} per record in the threaded writer). The host columns belong to the batch's
 * {@link HostPartitions}, which outlives the writer.
 */
public final class JCudfPayload extends HostTablePayload {
    JCudfPayload(HostColumnVector[] columns, int rowOffset, int rows, ShuffleCodec codec) {
        super(columns, rowOffset, recordRows(rows), codec,
                JCudfSerialization.getSerializedSizeInBytes(columns, rowOffset, rows));
    }

    @Override
    void serialize(OutputStream out) throws IOException {
        // writeToStream wraps a plain OutputStream in a DataOutputStream over a BufferedOutputStream (8 KiB) and
        // flushes it at the end, as spark-rapids' serialization stream does; it does not close it.
        JCudfSerialization.writeToStream(columns, out, rowOffset, rows);
    }
}
