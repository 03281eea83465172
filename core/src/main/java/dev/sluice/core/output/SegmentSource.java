package dev.sluice.core.output;

import dev.sluice.core.io.ReadableFile;
import java.io.IOException;
import java.nio.ByteBuffer;

/** Something that holds partition segments: a buffer in memory, or the file it spilled to. */
public interface SegmentSource {
    boolean inMemory();

    /** Bytes [offset, offset+length) of an in-memory source; valid until {@link #release}. */
    ByteBuffer memorySlice(long offset, long length);

    /** The file of a spilled source, open for reading until {@link #release}. */
    ReadableFile file() throws IOException;

    /** Frees the memory and deletes the file. Idempotent. */
    void release() throws IOException;
}
