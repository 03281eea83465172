package dev.sluice.spi.storage;

import dev.sluice.spi.WriterImplements;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Something that holds partition segments: a buffer in memory, or the file it spilled to. It may move from memory to
 * file at any time (spilling), so readers read by position through it rather than holding on to its memory.
 */
@WriterImplements
public interface SegmentSource {
    boolean inMemory();

    /**
     * Reads bytes from {@code position} into {@code dst}, as many as fit and exist; returns how many, or -1 at the end.
     * Safe while another thread spills the source.
     */
    int read(long position, ByteBuffer dst) throws IOException;

    /** Frees the memory and deletes the file. Idempotent. */
    void release() throws IOException;
}
