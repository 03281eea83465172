package dev.sluice.strategy.support;

import dev.sluice.spi.storage.WritableFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/**
 * A write buffer in front of a {@link WritableFile} with exactly {@link java.io.BufferedOutputStream}'s policy, which
 * is what Spark puts in front of every shuffle file ({@code spark.shuffle.file.buffer} in
 * {@code DiskBlockObjectWriter}) and spark-rapids in front of a partial file: a write that fits is copied into the
 * buffer; one that does not fit in what is left flushes the buffer first; one at least as large as the whole buffer
 * flushes it and goes to the file directly, in one call. So the write calls a strategy makes are the ones upstream's
 * streams make. With a buffer of no capacity, every write goes straight to the file. The buffer's memory belongs to
 * the caller.
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
        int n = src.remaining();
        if (n >= buffer.capacity()) {
            flush();
            file.write(src);
        } else {
            if (n > buffer.remaining()) {
                flush();
            }
            buffer.put(src);
        }
        bytesWritten += n;
        return n;
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
