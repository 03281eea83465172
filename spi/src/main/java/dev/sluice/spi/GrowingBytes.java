package dev.sluice.spi;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;

/**
 * A heap byte stream that starts at 32 bytes and doubles as it is written, and lets its bytes be read without a
 * copy: what spark-rapids' writer threads serialize and compress a record into ({@code OpenByteArrayOutputStream}
 * of spark-rapids-jni, a {@link ByteArrayOutputStream} with its buffer exposed).
 */
@WriterGiven
public final class GrowingBytes extends ByteArrayOutputStream {
    static final int INITIAL = 32;

    public GrowingBytes() {
        super(INITIAL);
    }

    /** The bytes written, without a copy; valid until the next write. */
    public ByteBuffer bytes() {
        return ByteBuffer.wrap(buf, 0, count);
    }

    /** Heap memory held: the array's length, written or not. */
    public int capacity() {
        return buf.length;
    }
}
