package dev.sluice.core.serde;

import dev.sluice.core.memory.ArrowHostAllocator;
import dev.sluice.spi.Payload;
import dev.sluice.spi.memory.HostAllocator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * A slice of an Arrow batch, written as one Arrow IPC record batch message of its {@link ArrowIpcFormat}. The slice
 * belongs to the input that made it; the payload reads it and never closes it.
 */
public final class ArrowPayload implements Payload {
    private final ArrowIpcFormat format;
    private final VectorSchemaRoot slice;
    private final long inputBytes;

    ArrowPayload(ArrowIpcFormat format, VectorSchemaRoot slice) {
        this.format = format;
        this.slice = slice;
        long b = 0;
        for (FieldVector v : slice.getFieldVectors()) {
            b += v.getBufferSize();
        }
        this.inputBytes = b;
    }

    /** The rows, for readers and tests; strategies use the payload's methods. */
    public VectorSchemaRoot slice() {
        return slice;
    }

    @Override
    public long rows() {
        return slice.getRowCount();
    }

    /** Arrow buffer bytes of the slice. */
    @Override
    public long inputBytes() {
        return inputBytes;
    }

    @Override
    public long serializedBound() {
        return format.memoryBound(slice);
    }

    @Override
    public long writeTo(WritableByteChannel out, HostAllocator scratch) throws IOException {
        return format.writeRecord(slice, out, ArrowHostAllocator.arrow(scratch));
    }

    /** An uncompressed, unframed record: its metadata around its vectors' own buffers ({@link ArrowIpcFormat}). */
    @Override
    public Optional<Pieces> pieces(HostAllocator scratch) throws IOException {
        return format.pieces(slice, ArrowHostAllocator.arrow(scratch));
    }

    @Override
    public <B> B writeSized(IntFunction<B> make, Function<B, ByteBuffer> view, Consumer<B> free,
                            HostAllocator scratch) throws IOException {
        return format.writeSized(slice, make, view, free, ArrowHostAllocator.arrow(scratch));
    }
}
