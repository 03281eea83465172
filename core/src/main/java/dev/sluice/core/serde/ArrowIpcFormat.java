package dev.sluice.core.serde;

import dev.sluice.spi.BufferChannel;
import dev.sluice.spi.Payload;
import dev.sluice.spi.StreamFormat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Arrow IPC streams: a partition is the schema message, one record batch message per record, and the end-of-stream
 * marker, one complete stream that Arrow's readers read (Java {@code ArrowStreamReader}, {@code pyarrow.ipc}), each
 * piece framed by the codec. Its payloads are {@link ArrowPayload}s: slices of Arrow batches. Thread-safe.
 */
public final class ArrowIpcFormat implements StreamFormat {
    private static final IpcOption IPC = IpcOption.DEFAULT;
    /** Generous bounds of a record batch message's flatbuffer metadata: fixed part, and per field node or buffer. */
    private static final long METADATA_BASE = 1024;
    private static final long METADATA_PER_PIECE = 64;

    private final Schema schema;
    private final ShuffleCodec codec;
    private final byte[] header;
    private final byte[] endOfStream;

    public ArrowIpcFormat(Schema schema, ShuffleCodec codec) {
        this.schema = schema;
        this.codec = codec;
        this.header = frame(out -> MessageSerializer.serialize(new WriteChannel(out), schema, IPC));
        this.endOfStream = frame(out -> ArrowStreamWriter.writeEndOfStream(new WriteChannel(out), IPC));
    }

    public Schema schema() {
        return schema;
    }

    /** The codec its payloads compress with: for readers and reports. */
    public ShuffleCodec codec() {
        return codec;
    }

    @Override
    public byte[] streamHeader() {
        return header;
    }

    @Override
    public byte[] endOfStream() {
        return endOfStream;
    }

    /** A payload of {@code slice}'s rows in this format; the slice stays the caller's. */
    public ArrowPayload payload(VectorSchemaRoot slice) {
        return new ArrowPayload(this, slice);
    }

    /** Writes one record batch message for {@code slice} to {@code out}, framed; returns the bytes written. */
    long writeRecord(VectorSchemaRoot slice, WritableByteChannel out, BufferAllocator scratch) throws IOException {
        Counting counted = new Counting(out);
        try (ShuffleCodec.Piece piece = codec.open(counted);
             ArrowRecordBatch batch = unload(slice, scratch)) {
            MessageSerializer.serialize(new WriteChannel(piece), batch, IPC);
            piece.finish();
        }
        return counted.bytes;
    }

    /**
     * An upper bound of the memory writing {@code slice} needs: its compression scratch (body compression compresses
     * every buffer before writing) plus the framed record. Computed from buffer sizes alone, without serializing.
     */
    long memoryBound(VectorSchemaRoot slice) {
        long pieces = 0;
        long body = 0;
        long scratch = 0;
        for (FieldVector vector : slice.getFieldVectors()) {
            pieces++;
            for (ArrowBuf buf : vector.getFieldBuffers()) {
                pieces++;
                long length = buf.readableBytes();
                body += align8(codec.bodyBufferBound(length));
                scratch += codec.bodyScratchBound(length);
            }
        }
        return codec.pieceBound(METADATA_BASE + METADATA_PER_PIECE * pieces + body) + scratch;
    }

    /**
     * {@code slice}'s record in a buffer of exactly its size that {@code make} makes ({@code Payload.writeSized}). An
     * unframed record's size is known before it is written (metadata, then the aligned body), so it is serialized
     * straight into the buffer; a framed one is compressed to the heap first.
     */
    <B> B writeSized(VectorSchemaRoot slice, IntFunction<B> make, Function<B, ByteBuffer> view, Consumer<B> free,
                     BufferAllocator scratch) throws IOException {
        if (codec.framesPieces()) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(ShuffleCodec.LZ4_BLOCK_SIZE);
            writeRecord(slice, Channels.newChannel(bytes), scratch);
            B out = make.apply(bytes.size());
            view.apply(out).put(bytes.toByteArray());
            return out;
        }
        try (ArrowRecordBatch batch = unload(slice, scratch)) {
            // An IPC message: continuation token and length, metadata padded to 8 bytes, then the (aligned) body.
            long metadata = MessageSerializer.serializeMetadata(batch, IPC).remaining();
            int size = Math.toIntExact(align8(8 + metadata) + batch.computeBodyLength());
            B out = make.apply(size);
            try {
                ByteBuffer target = view.apply(out);
                int start = target.position();
                MessageSerializer.serialize(new WriteChannel(new BufferChannel(target)), batch, IPC);
                if (target.position() - start != size) {
                    throw new IllegalStateException("record serialized to " + (target.position() - start)
                            + " bytes, sized " + size);
                }
                return out;
            } catch (IOException | RuntimeException e) {
                free.accept(out);
                throw e;
            }
        }
    }

    /**
     * {@code slice}'s record as pieces ({@code Payload.pieces}) where the codec neither frames nor compresses it: the
     * message is made by Arrow's own serializer, as {@link #writeRecord} makes it, into a channel that keeps every
     * direct buffer it is given (a vector's buffer: Arrow hands {@code WriteChannel} views of its memory) as a view
     * and copies the rest (prefix, metadata, padding: heap buffers of a few bytes), so the bytes are the same by
     * construction. The record batch stays open, holding the vectors' buffers, until the pieces are closed.
     */
    Optional<Payload.Pieces> pieces(VectorSchemaRoot slice, BufferAllocator scratch) throws IOException {
        if (codec.framesPieces() || codec.compressesBodies()) {
            return Optional.empty();
        }
        ArrowRecordBatch batch = unload(slice, scratch);
        try {
            Gathered gathered = new Gathered(batch);
            MessageSerializer.serialize(new WriteChannel(gathered), batch, IPC);
            gathered.endHeapRun();
            return Optional.of(gathered);
        } catch (IOException | RuntimeException | Error e) {
            batch.close();
            throw e;
        }
    }

    /** The pieces of one record: views of its buffers, copies of the bytes between them. */
    private static final class Gathered implements WritableByteChannel, Payload.Pieces {
        private final ArrowRecordBatch batch;
        private final List<ByteBuffer> buffers = new ArrayList<>();
        private final ByteArrayOutputStream heapRun = new ByteArrayOutputStream(64);
        private long bytes;
        private boolean closed;

        Gathered(ArrowRecordBatch batch) {
            this.batch = batch;
        }

        @Override
        public int write(ByteBuffer src) {
            int n = src.remaining();
            if (src.isDirect()) {
                endHeapRun();
                buffers.add(src.slice());
                src.position(src.limit());
            } else {
                byte[] copy = new byte[n];
                src.get(copy);
                heapRun.write(copy, 0, n);
            }
            bytes += n;
            return n;
        }

        void endHeapRun() {
            if (heapRun.size() > 0) {
                buffers.add(ByteBuffer.wrap(heapRun.toByteArray()));
                heapRun.reset();
            }
        }

        @Override
        public List<ByteBuffer> buffers() {
            return buffers;
        }

        @Override
        public long bytes() {
            return bytes;
        }

        @Override
        public boolean isOpen() {
            return !closed;
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                buffers.clear();
                batch.close();
            }
        }
    }

    /**
     * The slice as a record batch, its buffers compressed by the codec's body codec. Arrow's {@code VectorUnloader}
     * drops the buffers it already compressed when a later one fails; here they are released.
     */
    private ArrowRecordBatch unload(VectorSchemaRoot slice, BufferAllocator scratch) {
        TrackingCodec tracking = new TrackingCodec(codec.bodyCodec(scratch));
        try {
            return new VectorUnloader(slice, true, tracking, true).getRecordBatch();
        } catch (RuntimeException | Error e) {
            tracking.releaseOutputs();
            throw e;
        }
    }

    /** Remembers what a codec produced during one unload, to release it if the unload fails. */
    private static final class TrackingCodec implements CompressionCodec {
        private final CompressionCodec codec;
        private final List<ArrowBuf> outputs = new ArrayList<>();

        TrackingCodec(CompressionCodec codec) {
            this.codec = codec;
        }

        @Override
        public ArrowBuf compress(BufferAllocator allocator, ArrowBuf uncompressed) {
            ArrowBuf out = codec.compress(allocator, uncompressed);
            if (out != uncompressed) {
                outputs.add(out);
            }
            return out;
        }

        @Override
        public ArrowBuf decompress(BufferAllocator allocator, ArrowBuf compressed) {
            return codec.decompress(allocator, compressed);
        }

        @Override
        public CompressionUtil.CodecType getCodecType() {
            return codec.getCodecType();
        }

        void releaseOutputs() {
            outputs.forEach(ArrowBuf::close);
        }
    }

    private static long align8(long n) {
        return (n + 7) & ~7L;
    }

    private interface Piece {
        void writeTo(WritableByteChannel out) throws IOException;
    }

    private byte[] frame(Piece piece) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (ShuffleCodec.Piece framed = codec.open(Channels.newChannel(bytes))) {
                piece.writeTo(framed);
                framed.finish();
            }
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException("serializing to memory failed", e);
        }
    }
}
