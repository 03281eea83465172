package dev.sluice.spi;

import dev.sluice.spi.memory.HostAllocator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * The contents of one shuffle record, in whatever form the map task made them (an Arrow slice, cuDF host columns,
 * bytes already serialized), and the one way to turn them into the bytes a partition's stream holds: serialized and
 * compressed by the map task's codec. A strategy moves payloads and calls these methods, on whatever thread it
 * chooses (upstream compresses on writer threads); it never sees the format or the codec. Implementations are
 * read-only after construction, so any thread may write a payload, and writing it twice gives the same bytes.
 *
 * <p>{@code scratch}, where a method takes it, is memory the payload may borrow while it writes (compressed buffers
 * of Arrow IPC body compression), charged to the writer that asks; it is released before the method returns.
 */
@WriterGiven
public interface Payload {
    /** Rows the payload holds. */
    long rows();

    /** Bytes the payload holds in memory before it is serialized: what a record costs in flight. */
    long inputBytes();

    /**
     * An upper bound of the memory serializing takes: the serialized, compressed bytes plus any scratch held while
     * they are made. Computed without serializing.
     */
    long serializedBound();

    /** Writes the serialized, compressed bytes to {@code out}; returns how many. */
    long writeTo(WritableByteChannel out, HostAllocator scratch) throws IOException;

    /**
     * Writes the bytes into {@code target} from its position on (which moves past them), for a caller that reuses its
     * buffers; returns how many. {@code target} must have {@link #serializedBound} bytes remaining.
     */
    default int writeInto(ByteBuffer target, HostAllocator scratch) throws IOException {
        int start = target.position();
        writeTo(new BufferChannel(target), scratch);
        return target.position() - start;
    }

    /**
     * The bytes as buffers to be written in this order, where the payload holds most of them already and nothing has
     * to be made: an Arrow record written neither compressed nor framed is a few bytes of message metadata and
     * padding around its vectors' own buffers, which a gathering write can take where they lie. Empty where the bytes
     * must be made (compressed, framed): use {@link #writeTo} or {@link #writeInto}. The same bytes either way. The
     * caller owns what is returned: its buffers stay valid until it is closed.
     */
    default Optional<Pieces> pieces(HostAllocator scratch) throws IOException {
        return Optional.empty();
    }

    /** A payload's bytes as buffers that hold them where they lie ({@link #pieces}); closing releases them. */
    interface Pieces extends AutoCloseable {
        /** The buffers in write order; the caller may move their positions (a gathering write does). */
        List<ByteBuffer> buffers();

        /** Their bytes in all. */
        long bytes();

        @Override
        void close();
    }

    /**
     * The bytes in a heap array that grows as it is written (from 32 bytes, doubling), as spark-rapids' writer
     * threads serialize into an {@code OpenByteArrayOutputStream}.
     */
    default GrowingBytes toHeap(HostAllocator scratch) throws IOException {
        GrowingBytes out = new GrowingBytes();
        writeTo(Channels.newChannel(out), scratch);
        return out;
    }

    /**
     * The bytes in a buffer of exactly their size, of the caller's kind (a pooled direct buffer, say): {@code make} is
     * asked once, with the size, and the bytes go into {@code view} of it from its position on. The caller owns the
     * buffer once it is returned; if writing fails, it is given to {@code free} first. A payload that knows its size
     * before it writes (an unframed Arrow record) serializes straight into the buffer; this one writes to the heap
     * first and copies.
     */
    default <B> B writeSized(IntFunction<B> make, Function<B, ByteBuffer> view, Consumer<B> free,
                             HostAllocator scratch) throws IOException {
        GrowingBytes bytes = toHeap(scratch);
        B buffer = make.apply(bytes.size());
        view.apply(buffer).put(bytes.bytes());
        return buffer;
    }
}
