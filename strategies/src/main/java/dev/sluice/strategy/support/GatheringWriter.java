package dev.sluice.strategy.support;

import dev.sluice.spi.storage.WritableFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Collects buffers to be appended to a file and writes them with gathering writes ({@code writev}), at most
 * {@value #IOV_MAX} buffers per call (the kernel's limit, so one call here is one system call). Used where many
 * small pieces held in memory (partition segments, stream headers) go to storage: a few large calls instead of
 * one per piece. The buffers must stay valid until {@link #flush}.
 */
public final class GatheringWriter {
    static final int IOV_MAX = 1024;

    private final WritableFile file;
    private final List<ByteBuffer> pending = new ArrayList<>();
    private long written;

    public GatheringWriter(WritableFile file) {
        this.file = file;
    }

    public void add(ByteBuffer buffer) throws IOException {
        if (!buffer.hasRemaining()) {
            return;
        }
        pending.add(buffer);
        if (pending.size() == IOV_MAX) {
            flush();
        }
    }

    /** Writes everything collected so far. */
    public void flush() throws IOException {
        if (!pending.isEmpty()) {
            written += file.write(pending.toArray(new ByteBuffer[0]));
            pending.clear();
        }
    }

    /** Bytes written by this writer (after {@link #flush}). */
    public long written() {
        return written;
    }
}
