package dev.sluice.core.serde;

import dev.sluice.spi.Payload;
import dev.sluice.spi.memory.HostAllocator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/**
 * A payload of bytes serialized already (by a format Sluice does not know: Spark's {@code UnsafeRow} serializer, a
 * cuDF host table, a test's pattern), which the codec frames and compresses on the strategy's thread like any other.
 * The bytes are the caller's and must not change while the payload is written.
 */
public final class BytesPayload implements Payload {
    private final ByteBuffer bytes;
    private final long rows;
    private final ShuffleCodec codec;

    public BytesPayload(ByteBuffer bytes, long rows, ShuffleCodec codec) {
        this.bytes = bytes.asReadOnlyBuffer();
        this.rows = rows;
        this.codec = codec;
    }

    @Override
    public long rows() {
        return rows;
    }

    @Override
    public long inputBytes() {
        return bytes.remaining();
    }

    @Override
    public long serializedBound() {
        return codec.pieceBound(bytes.remaining());
    }

    @Override
    public long writeTo(WritableByteChannel out, HostAllocator scratch) throws IOException {
        Counting counted = new Counting(out);
        try (ShuffleCodec.Piece piece = codec.open(counted)) {
            piece.write(bytes.duplicate());
            piece.finish();
        }
        return counted.bytes;
    }
}
