package dev.sluice.spi.storage;

import dev.sluice.spi.WriterGiven;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;

/**
 * A file being written, through {@link CountedStorage}. Each method call that moves bytes is one call to the OS
 * (a short write is retried, and the retry counts as another call), so {@link IoCounters} sees what the kernel saw.
 * Not thread-safe: one owner writes a file.
 */
@WriterGiven
public final class WritableFile implements WritableByteChannel {
    private final CountedStorage storage;
    private final Path path;
    private final FileChannel channel;
    private final FilePurpose purpose;

    WritableFile(CountedStorage storage, Path path, FileChannel channel, FilePurpose purpose) {
        this.storage = storage;
        this.path = path;
        this.channel = channel;
        this.purpose = purpose;
    }

    public FilePurpose purpose() {
        return purpose;
    }

    private void written(long n, WriteKind kind) {
        storage.counters().recordWrite(n, kind);
        if (purpose == FilePurpose.SPILL) {
            storage.counters().recordSpill(n);
        } else if (purpose == FilePurpose.TEMP) {
            storage.counters().recordTemp(n);
        }
    }

    public Path path() {
        return path;
    }

    /** Writes all remaining bytes of {@code src}; returns how many. */
    @Override
    public int write(ByteBuffer src) throws IOException {
        int total = 0;
        while (src.hasRemaining()) {
            storage.beforeWrite(path, src.remaining(), WriteKind.MEMORY);
            int n = channel.write(src);
            written(n, WriteKind.MEMORY);
            total += n;
        }
        return total;
    }

    /** A gathering write ({@code writev}) of all remaining bytes of {@code srcs}; returns how many. */
    public long write(ByteBuffer[] srcs) throws IOException {
        long remaining = 0;
        for (ByteBuffer b : srcs) {
            remaining += b.remaining();
        }
        long total = 0;
        while (remaining > 0) {
            storage.beforeWrite(path, remaining, WriteKind.MEMORY);
            long n = channel.write(srcs);
            written(n, WriteKind.MEMORY);
            total += n;
            remaining -= n;
        }
        return total;
    }

    /** Appends {@code count} bytes of {@code src} from {@code position}, copied file to file by the kernel. */
    public long transferFrom(ReadableFile src, long position, long count) throws IOException {
        long done = 0;
        while (done < count) {
            storage.beforeWrite(path, count - done, WriteKind.TRANSFER);
            long n = src.channel().transferTo(position + done, count - done, channel);
            if (n <= 0) {
                throw new IOException("transfer from " + src.path() + " stopped at " + (position + done)
                        + " of " + (position + count) + ": is the file shorter than its index says?");
            }
            written(n, WriteKind.TRANSFER);
            storage.counters().recordRead(n);
            done += n;
        }
        return done;
    }

    /** Bytes written so far (the file's size: files are only appended to). */
    public long size() throws IOException {
        return channel.size();
    }

    /** fsync: data and metadata reach the device before this returns. */
    public void force() throws IOException {
        storage.beforeForce(path);
        channel.force(true);
        storage.counters().recordFsync();
    }

    @Override
    public boolean isOpen() {
        return channel.isOpen();
    }

    @Override
    public void close() throws IOException {
        if (channel.isOpen()) {
            storage.counters().recordClose();
        }
        channel.close();
    }
}
