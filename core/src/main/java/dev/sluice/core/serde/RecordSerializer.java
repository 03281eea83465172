package dev.sluice.core.serde;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayList;
import java.util.List;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import net.jpountz.lz4.LZ4BlockOutputStream;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.xxhash.XXHashFactory;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.compression.NoCompressionCodec;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Turns shuffle records into bytes, the same bytes whichever strategy asks. A partition's bytes are
 * {@link #streamHeader()}, then {@link #writeRecord} of each of its records in input order, then {@link #endOfStream()}:
 * one complete Arrow IPC stream (schema once, record batches, end-of-stream marker). Each of the three pieces is
 * self-contained, so a strategy may write them into different buffers or files and concatenate them later.
 *
 * <p>With {@link ShuffleCodec#LZ4_BLOCK} each piece is its own {@code LZ4BlockOutputStream} stream, as when Spark's
 * multithreaded writer compresses every record separately; lz4-java's and Spark's readers read concatenated streams.
 * Thread-safe: writer threads share one serializer.
 */
public final class RecordSerializer {
    /** {@code spark.io.compression.lz4.blockSize} default. */
    public static final int LZ4_BLOCK_SIZE = 32 * 1024;
    /**
     * Serialized bytes of a batch, as a share of its Arrow input: an upper bound for this generator's data (LZ4
     * compresses it to about 0.9; uncompressed IPC adds its metadata and padding). What memory plans assume.
     */
    public static final double SERIALIZED_PER_INPUT = 1.05;
    /** Seed of the XXHash32 checksum in Spark's {@code LZ4CompressionCodec}. */
    public static final int LZ4_BLOCK_CHECKSUM_SEED = 0x9747b28c;

    private static final IpcOption IPC = IpcOption.DEFAULT;
    /** Generous bounds of a record batch message's flatbuffer metadata: fixed part, and per field node or buffer. */
    private static final long METADATA_BASE = 1024;
    private static final long METADATA_PER_PIECE = 64;
    /** An LZ4 block stream block: magic, token, two lengths, checksum; and the worst case of one 32 KiB block. */
    private static final long LZ4_BLOCK_HEADER = 21;
    private static final long LZ4_BLOCK_BOUND = LZ4Factory.fastestInstance().fastCompressor().maxCompressedLength(LZ4_BLOCK_SIZE);

    private final Schema schema;
    private final ShuffleCodec codec;
    private final CompressionCodec bodyCodec;
    private final byte[] header;
    private final byte[] endOfStream;

    /** @param scratch allocator charged for compressed record bodies while they are written */
    public RecordSerializer(Schema schema, ShuffleCodec codec, BufferAllocator scratch) {
        this.schema = schema;
        this.codec = codec;
        this.bodyCodec = codec == ShuffleCodec.LZ4_FRAME ? new Lz4FrameCodec(scratch) : NoCompressionCodec.INSTANCE;
        this.header = frame(out -> MessageSerializer.serialize(new WriteChannel(out), schema, IPC));
        this.endOfStream = frame(out -> ArrowStreamWriter.writeEndOfStream(new WriteChannel(out), IPC));
    }

    public Schema schema() {
        return schema;
    }

    public ShuffleCodec codec() {
        return codec;
    }

    /** Bytes that open every non-empty partition: the schema message. Do not modify. */
    public byte[] streamHeader() {
        return header;
    }

    /** Bytes that close every non-empty partition: the end-of-stream marker. Do not modify. */
    public byte[] endOfStream() {
        return endOfStream;
    }

    /** Writes one record batch message for {@code slice} to {@code out}; returns the bytes written. */
    public long writeRecord(VectorSchemaRoot slice, WritableByteChannel out) throws IOException {
        CountingChannel counted = new CountingChannel(out);
        try (ArrowRecordBatch batch = unload(slice)) {
            if (codec == ShuffleCodec.LZ4_BLOCK) {
                LZ4BlockOutputStream lz4 = lz4Block(Channels.newOutputStream(counted));
                MessageSerializer.serialize(new WriteChannel(Channels.newChannel(lz4)), batch, IPC);
                lz4.finish();
            } else {
                MessageSerializer.serialize(new WriteChannel(counted), batch, IPC);
            }
        }
        return counted.bytes;
    }

    /**
     * An upper bound of the memory {@link #serialize} needs for {@code slice}: its compression scratch (LZ4_FRAME
     * compresses every buffer before writing; Arrow rounds those allocations up to a power of two) plus the
     * serialized record. Computed from buffer sizes alone, without serializing.
     */
    public long memoryBound(VectorSchemaRoot slice) {
        long pieces = 0;
        long raw = 0;
        long frames = 0;
        long scratch = 0;
        for (FieldVector vector : slice.getFieldVectors()) {
            pieces++;
            for (ArrowBuf buf : vector.getFieldBuffers()) {
                pieces++;
                long length = buf.readableBytes();
                raw += align8(length);
                long frame = Lz4FrameCodec.maxFrameLength(length);
                frames += align8(frame);
                scratch += Long.highestOneBit(Math.max(1, frame) - 1) << 1;
            }
        }
        long metadata = METADATA_BASE + METADATA_PER_PIECE * pieces;
        switch (codec) {
            case NONE:
                return metadata + raw;
            case LZ4_FRAME:
                return metadata + frames + scratch;
            default:
                long stream = metadata + raw;
                long blocks = (stream + LZ4_BLOCK_SIZE - 1) / LZ4_BLOCK_SIZE;
                return blocks * (LZ4_BLOCK_HEADER + LZ4_BLOCK_BOUND) + LZ4_BLOCK_HEADER;
        }
    }

    /**
     * Serializes one record into a heap array that grows as it is written (from 32 bytes, doubling), as spark-rapids'
     * writer threads do into an {@code OpenByteArrayOutputStream}.
     */
    public GrowingBytes serializeToHeap(VectorSchemaRoot slice) throws IOException {
        GrowingBytes out = new GrowingBytes();
        writeRecord(slice, Channels.newChannel(out));
        return out;
    }

    /** Serializes one record into a direct buffer of exactly its size, from {@code allocator}. */
    public ByteBuf serialize(VectorSchemaRoot slice, ByteBufAllocator allocator) throws IOException {
        if (codec == ShuffleCodec.LZ4_BLOCK) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(LZ4_BLOCK_SIZE);
            writeRecord(slice, Channels.newChannel(bytes));
            ByteBuf out = allocator.directBuffer(bytes.size(), bytes.size());
            out.writeBytes(bytes.toByteArray());
            return out;
        }
        try (ArrowRecordBatch batch = unload(slice)) {
            // An IPC message: continuation token and length, metadata padded to 8 bytes, then the (aligned) body.
            long metadata = MessageSerializer.serializeMetadata(batch, IPC).remaining();
            int size = Math.toIntExact(align8(8 + metadata) + batch.computeBodyLength());
            ByteBuf out = allocator.directBuffer(size, size);
            try {
                ByteBuffer view = out.nioBuffer(0, size);
                MessageSerializer.serialize(new WriteChannel(new BufferChannel(view)), batch, IPC);
                out.writerIndex(view.position());
                if (out.writerIndex() != size) {
                    throw new IllegalStateException("record serialized to " + out.writerIndex() + " bytes, sized " + size);
                }
                return out;
            } catch (IOException | RuntimeException e) {
                out.release();
                throw e;
            }
        }
    }

    /**
     * Serializes one record into {@code target}, from its position on (which moves past the record), for a caller that
     * reuses its buffers; returns the record's bytes. {@code target} must have {@link #memoryBound} bytes remaining.
     */
    public int serializeInto(VectorSchemaRoot slice, ByteBuffer target) throws IOException {
        int start = target.position();
        writeRecord(slice, new BufferChannel(target));
        return target.position() - start;
    }

    /**
     * The slice as a record batch, its buffers compressed by the body codec. Arrow's {@code VectorUnloader} drops the
     * buffers it already compressed when a later one fails; here they are released.
     */
    private ArrowRecordBatch unload(VectorSchemaRoot slice) {
        if (codec != ShuffleCodec.LZ4_FRAME) {
            return new VectorUnloader(slice, true, bodyCodec, true).getRecordBatch();
        }
        TrackingCodec tracking = new TrackingCodec(bodyCodec);
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
            outputs.add(out);
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
            if (codec == ShuffleCodec.LZ4_BLOCK) {
                LZ4BlockOutputStream lz4 = lz4Block(bytes);
                piece.writeTo(Channels.newChannel(lz4));
                lz4.finish();
            } else {
                piece.writeTo(Channels.newChannel(bytes));
            }
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException("serializing to memory failed", e);
        }
    }

    private static LZ4BlockOutputStream lz4Block(OutputStream out) {
        return new LZ4BlockOutputStream(out, LZ4_BLOCK_SIZE, LZ4Factory.fastestInstance().fastCompressor(),
                XXHashFactory.fastestInstance().newStreamingHash32(LZ4_BLOCK_CHECKSUM_SEED).asChecksum(), false);
    }

    private static final class CountingChannel implements WritableByteChannel {
        private final WritableByteChannel out;
        long bytes;

        CountingChannel(WritableByteChannel out) {
            this.out = out;
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            int n = out.write(src);
            bytes += n;
            return n;
        }

        @Override
        public boolean isOpen() {
            return out.isOpen();
        }

        @Override
        public void close() {
            // The caller owns the underlying channel.
        }
    }

    /** Writes into a buffer from its position on; a write past its limit fails instead of growing it. */
    private static final class BufferChannel implements WritableByteChannel {
        private final ByteBuffer target;
        private final int start;

        BufferChannel(ByteBuffer target) {
            this.target = target;
            this.start = target.position();
        }

        @Override
        public int write(ByteBuffer src) {
            int n = src.remaining();
            if (n > target.remaining()) {
                throw new IllegalStateException("record exceeds its memory bound: " + (target.position() - start + n)
                        + " bytes into a buffer of " + (target.limit() - start));
            }
            target.put(src);
            return n;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
            // The caller owns the buffer.
        }
    }
}
