package dev.sluice.core.serde;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;

/** Counts the bytes that pass to a channel it does not own: what a payload's {@code writeTo} returns. */
public final class Counting implements WritableByteChannel {
    private final WritableByteChannel out;
    long bytes;

    public Counting(WritableByteChannel out) {
        this.out = out;
    }

    /** Bytes written so far. */
    public long bytes() {
        return bytes;
    }

    /** {@code plain} framed as one piece of {@code codec}. */
    static byte[] framed(ShuffleCodec codec, byte[] plain) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (ShuffleCodec.Piece piece = codec.open(Channels.newChannel(bytes))) {
                piece.write(ByteBuffer.wrap(plain));
                piece.finish();
            }
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException("framing bytes in memory failed", e);
        }
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        int n = out.write(src);
        bytes += n;
        return n;
    }

    @Override
    public boolean isOpen() {
        return out.isOpen();
    }

    @Override
    public void close() {
        // The caller owns the underlying channel.
    }
}
