package dev.sluice.gpu;

import ai.rapids.cudf.HostColumnVector;
import dev.sluice.core.serde.Counting;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.spi.Payload;
import dev.sluice.spi.memory.HostAllocator;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;

/**
 * One partition's rows of one GPU batch's host copy, serialized by a cuDF table serializer into the map task's codec
 * piece, as spark-rapids' threaded writer wraps each record's stream in Spark's codec
 * ({@code serializerManager.wrapStream}). What differs between serializers is the call that writes the table
 * ({@link #serialize}) and its size; the rows, the counted piece and its life cycle are here. The host columns belong
 * to the batch's {@link HostPartitions}, which outlives the writer.
 */
abstract class HostTablePayload implements Payload {
    final HostColumnVector[] columns;
    final int rowOffset;
    final int rows;
    private final ShuffleCodec codec;
    private final long serializedBytes;

    /**
     * @param rows {@link #recordRows}'s, checked before {@code serializedBytes} is computed from them
     * @param serializedBytes what the serializer writes for these rows, before compression
     */
    HostTablePayload(HostColumnVector[] columns, int rowOffset, int rows, ShuffleCodec codec, long serializedBytes) {
        this.columns = columns;
        this.rowOffset = rowOffset;
        this.rows = rows;
        this.codec = codec;
        this.serializedBytes = serializedBytes;
    }

    /**
     * {@code rows}, for a subclass's constructor to pass on before it sizes the record (Java evaluates a constructor's
     * arguments left to right).
     *
     * @throws IllegalArgumentException for fewer than one row: upstream writes no table record for an empty slice, and
     *     kudo refuses numRows 0
     */
    static int recordRows(int rows) {
        if (rows < 1) {
            throw new IllegalArgumentException("a record holds at least one row, not " + rows);
        }
        return rows;
    }

    /**
     * Writes rows {@code [rowOffset, rowOffset + rows)} of {@link #columns} to {@code out}, a plain OutputStream over
     * the codec's piece, as upstream's serialization stream hands it to the serializer.
     */
    abstract void serialize(OutputStream out) throws IOException;

    @Override
    public final long rows() {
        return rows;
    }

    /** The serialized size: what the record's rows take in the serializer's format, headers included. */
    @Override
    public final long inputBytes() {
        return serializedBytes;
    }

    @Override
    public final long serializedBound() {
        return codec.pieceBound(serializedBytes);
    }

    @Override
    public final long writeTo(WritableByteChannel out, HostAllocator scratch) throws IOException {
        Counting counted = new Counting(out);
        // The piece is closed on failure too: zstd's holds a native context.
        try (ShuffleCodec.Piece piece = codec.open(counted)) {
            serialize(Channels.newOutputStream(piece));
            piece.finish();
        }
        return counted.bytes();
    }
}
