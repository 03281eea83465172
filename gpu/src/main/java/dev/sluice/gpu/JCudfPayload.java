package dev.sluice.gpu;

import ai.rapids.cudf.HostColumnVector;
import ai.rapids.cudf.JCudfSerialization;
import dev.sluice.core.serde.Counting;
import dev.sluice.core.serde.Payload;
import dev.sluice.core.serde.ShuffleCodec;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import org.apache.arrow.memory.BufferAllocator;

/**
 * One partition's rows of one GPU batch, as spark-rapids' serializer writes them
 * ({@code GpuColumnarBatchSerializer}): {@code JCudfSerialization.writeToStream(hostColumns, out, rowOffset, numRows)}
 * over the host copy of the partitioned batch, then compressed by the map task's codec (Spark's
 * {@code serializerManager.wrapStream} per record in the threaded writer). The host columns belong to the batch's
 * {@link HostPartitions}, which outlives the writer.
 */
public final class JCudfPayload implements Payload {
    private final HostColumnVector[] columns;
    private final long rowOffset;
    private final long rows;
    private final long serializedBytes;
    private final ShuffleCodec codec;

    JCudfPayload(HostColumnVector[] columns, long rowOffset, long rows, ShuffleCodec codec) {
        if (rows < 1) {
            throw new IllegalArgumentException("a record holds at least one row, not " + rows);
        }
        this.columns = columns;
        this.rowOffset = rowOffset;
        this.rows = rows;
        this.codec = codec;
        this.serializedBytes = JCudfSerialization.getSerializedSizeInBytes(columns, rowOffset, rows);
    }

    @Override
    public long rows() {
        return rows;
    }

    /** The serialized size: what the record's rows take on the host, headers included. */
    @Override
    public long inputBytes() {
        return serializedBytes;
    }

    @Override
    public long serializedBound() {
        return codec.pieceBound(serializedBytes);
    }

    @Override
    public long writeTo(WritableByteChannel out, BufferAllocator scratch) throws IOException {
        Counting counted = new Counting(out);
        try (ShuffleCodec.Piece piece = codec.open(counted)) {
            // writeToStream wraps a plain OutputStream in a DataOutputStream over a BufferedOutputStream (8 KiB) and
            // flushes it at the end, as spark-rapids' serialization stream does; it does not close it.
            JCudfSerialization.writeToStream(columns, Channels.newOutputStream(piece), rowOffset, rows);
            piece.finish();
        }
        return counted.bytes();
    }
}
