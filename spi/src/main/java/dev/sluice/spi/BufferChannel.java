package dev.sluice.spi;

import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/** Writes into a buffer from its position on; a write past its limit fails instead of growing it. */
@EngineOnly
public final class BufferChannel implements WritableByteChannel {
    private final ByteBuffer target;
    private final int start;

    public BufferChannel(ByteBuffer target) {
        this.target = target;
        this.start = target.position();
    }

    @Override
    public int write(ByteBuffer src) {
        int n = src.remaining();
        if (n > target.remaining()) {
            throw new IllegalStateException("record exceeds its memory bound: " + (target.position() - start + n)
                    + " bytes into a buffer of " + (target.limit() - start));
        }
        target.put(src);
        return n;
    }

    @Override
    public boolean isOpen() {
        return true;
    }

    @Override
    public void close() {
        // The caller owns the buffer.
    }
}
