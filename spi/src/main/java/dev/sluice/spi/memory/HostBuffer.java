package dev.sluice.spi.memory;

import dev.sluice.spi.WriterGiven;
import java.nio.ByteBuffer;

/** A buffer of a {@link HostAllocator}: off-heap bytes, addressed from 0 to {@link #capacity}, freed when closed. */
@WriterGiven
public interface HostBuffer extends AutoCloseable {
    long capacity();

    /** A view of {@code length} bytes from {@code index}, position 0, limit {@code length}; valid until closed. */
    ByteBuffer nioBuffer(long index, int length);

    /** Copies {@code src}'s remaining bytes to {@code index} on; {@code src}'s position moves past them. */
    void setBytes(long index, ByteBuffer src);

    /** Copies {@code length} bytes of {@code src} from {@code srcIndex} to {@code index} on. */
    void setBytes(long index, HostBuffer src, long srcIndex, long length);

    /** Copies bytes from {@code index} on into {@code dst}'s remaining bytes; {@code dst}'s position moves past them. */
    void getBytes(long index, ByteBuffer dst);

    /** Frees the buffer. */
    @Override
    void close();
}
