package dev.sluice.core.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/**
 * A write buffer in front of a {@link WritableFile}, as {@code spark.shuffle.file.buffer} puts one in front of each
 * shuffle file: bytes reach the OS in calls of exactly the buffer's size (the last one smaller), never larger, so the
 * buffer size is the write-call size a strategy chose. With a buffer of no capacity, every write goes straight to
 * the file. The buffer's memory belongs to the caller.
 */
public final class BufferedFileChannel implements WritableByteChannel {
    private final WritableFile file;
    private final ByteBuffer buffer;
    private long bytesWritten;

    public BufferedFileChannel(WritableFile file, ByteBuffer buffer) {
        this.file = file;
        this.buffer = buffer;
        buffer.clear();
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        int total = src.remaining();
        if (buffer.capacity() == 0) {
            file.write(src);
            bytesWritten += total;
            return total;
        }
        while (src.hasRemaining()) {
            if (buffer.position() == 0 && src.remaining() >= buffer.capacity()) {
                // A full buffer's worth with nothing pending: write it from the source, one call of buffer size.
                ByteBuffer chunk = src.slice();
                chunk.limit(buffer.capacity());
                file.write(chunk);
                src.position(src.position() + buffer.capacity());
            } else {
                int n = Math.min(buffer.remaining(), src.remaining());
                ByteBuffer part = src.slice();
                part.limit(n);
                buffer.put(part);
                src.position(src.position() + n);
                if (!buffer.hasRemaining()) {
                    flush();
                }
            }
        }
        bytesWritten += total;
        return total;
    }

    public void write(byte[] bytes) throws IOException {
        write(ByteBuffer.wrap(bytes));
    }

    /** Writes what the buffer holds. */
    public void flush() throws IOException {
        buffer.flip();
        if (buffer.hasRemaining()) {
            file.write(buffer);
        }
        buffer.clear();
    }

    /** Bytes accepted so far, flushed or not. */
    public long bytesWritten() {
        return bytesWritten;
    }

    @Override
    public boolean isOpen() {
        return file.isOpen();
    }

    /** Flushes; the file stays open (its owner closes it). */
    @Override
    public void close() throws IOException {
        flush();
    }
}
