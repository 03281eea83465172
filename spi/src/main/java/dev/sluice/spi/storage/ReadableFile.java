package dev.sluice.spi.storage;

import dev.sluice.spi.WriterGiven;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Path;

/** A file read back through {@link CountedStorage}: each read call and its bytes are counted. */
@WriterGiven
public final class ReadableFile implements AutoCloseable {
    private final CountedStorage storage;
    private final Path path;
    private final FileChannel channel;

    ReadableFile(CountedStorage storage, Path path, FileChannel channel) {
        this.storage = storage;
        this.path = path;
        this.channel = channel;
    }

    public Path path() {
        return path;
    }

    public long size() throws IOException {
        return channel.size();
    }

    FileChannel channel() {
        return channel;
    }

    /** Positional read; returns bytes read, or -1 at end of file. */
    public int read(ByteBuffer dst, long position) throws IOException {
        int n = channel.read(dst, position);
        if (n > 0) {
            storage.counters().recordRead(n);
        }
        return n;
    }

    /** Fills {@code dst} from {@code position}; fails if the file ends first. */
    public void readFully(ByteBuffer dst, long position) throws IOException {
        long at = position;
        while (dst.hasRemaining()) {
            int n = read(dst, at);
            if (n < 0) {
                throw new EOFException(path + " ends at " + at + ", before " + (at + dst.remaining()));
            }
            at += n;
        }
    }

    /** A channel over bytes [offset, offset + length) of this file; closing it does not close the file. */
    public ReadableByteChannel range(long offset, long length) {
        return new ReadableByteChannel() {
            private long position = offset;
            private final long end = offset + length;
            private boolean open = true;

            @Override
            public int read(ByteBuffer dst) throws IOException {
                if (position >= end) {
                    return -1;
                }
                ByteBuffer window = dst;
                int limit = dst.limit();
                if (dst.remaining() > end - position) {
                    dst.limit(dst.position() + (int) (end - position));
                }
                try {
                    int n = ReadableFile.this.read(window, position);
                    if (n < 0) {
                        throw new EOFException(path + " ends at " + position + ", before " + end);
                    }
                    position += n;
                    return n;
                } finally {
                    dst.limit(limit);
                }
            }

            @Override
            public boolean isOpen() {
                return open;
            }

            @Override
            public void close() {
                open = false;
            }
        };
    }

    @Override
    public void close() throws IOException {
        if (channel.isOpen()) {
            storage.counters().recordClose();
        }
        channel.close();
    }
}
