package dev.sluice.core.serde;

import com.github.luben.zstd.RecyclingBufferPool;
import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import com.github.luben.zstd.ZstdOutputStreamNoFinalizer;
import dev.sluice.spi.InvalidParameterException;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.WritableByteChannel;
import java.util.Arrays;
import java.util.stream.Collectors;
import net.jpountz.lz4.LZ4BlockInputStream;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.xxhash.XXHash32;
import net.jpountz.xxhash.XXHashFactory;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.NoCompressionCodec;

/**
 * How a partition's stream is compressed, and everything that follows from it: how one self-contained piece of the
 * stream (a stream header, a record, the end marker) is framed on its way out ({@link #open}) and how large it may get
 * ({@link #pieceBound}), how a record's own buffers are compressed inside it ({@link #bodyCodec}), and how a reader
 * undoes the framing ({@link #unframe}). Payloads and readers ask the codec; no one else branches on it.
 */
public enum ShuffleCodec {
    /** Plain stream: pieces pass through. */
    NONE("none"),
    /**
     * Arrow IPC body compression {@code LZ4_FRAME}: each buffer of a record batch is one LZ4 frame; the stream itself
     * is not framed.
     */
    LZ4_FRAME("lz4-frame") {
        @Override
        public CompressionCodec bodyCodec(BufferAllocator scratch) {
            return new Lz4FrameCodec(scratch);
        }

        @Override
        public long bodyBufferBound(long length) {
            return Lz4FrameCodec.maxFrameLength(length);
        }

        @Override
        public boolean compressesBodies() {
            return true;
        }

        /** Arrow allocates each compressed buffer rounded up to a power of two before it is written. */
        @Override
        public long bodyScratchBound(long length) {
            return Long.highestOneBit(Math.max(1, Lz4FrameCodec.maxFrameLength(length)) - 1) << 1;
        }
    },
    /**
     * The stream wrapped as Spark's {@code spark.io.compression.codec=lz4} does: lz4-java's
     * {@code LZ4BlockOutputStream} with 32 KiB blocks and XXHash32 checksums (seed {@code 0x9747b28c}). Each piece is
     * its own block stream, as when Spark's multithreaded writer compresses every record separately; lz4-java's and
     * Spark's readers read concatenated streams.
     */
    LZ4_BLOCK("lz4-block") {
        @Override
        public Piece open(WritableByteChannel out) {
            return new Piece.Lz4Block(out);
        }

        @Override
        public boolean framesPieces() {
            return true;
        }

        @Override
        public long pieceBound(long plainBytes) {
            long blocks = (plainBytes + LZ4_BLOCK_SIZE - 1) / LZ4_BLOCK_SIZE;
            return blocks * (LZ4_BLOCK_HEADER + Lz4Bound.BLOCK) + LZ4_BLOCK_HEADER;
        }

        /**
         * Reads concatenated streams, as Spark's {@code LZ4CompressionCodec} does, with the safe decompressor:
         * lz4-java 1.10 answers {@code fastDecompressor()} with a pure-Java one even where the native library loads
         * (CVE-2025-12183), which took a fifth of the time of verifying an output.
         */
        @Override
        public InputStream unframe(InputStream bytes) {
            return LZ4BlockInputStream.newBuilder()
                    .withDecompressor(LZ4Factory.fastestInstance().safeDecompressor())
                    .withChecksum(XXHashFactory.fastestInstance().newStreamingHash32(LZ4_BLOCK_CHECKSUM_SEED).asChecksum())
                    .withStopOnEmptyBlock(false)
                    .build(bytes);
        }
    },
    /**
     * Each piece compressed as Spark's {@code spark.io.compression.codec=zstd} compresses a stream
     * ({@code ZStdCompressionCodec.compressedOutputStream}, core/src/main/scala/org/apache/spark/io/CompressionCodec.scala
     * in Spark 4.1.0, apache/spark @ e221b56be7): zstd-jni's {@code ZstdOutputStreamNoFinalizer} on its recycling
     * buffer pool ({@code spark.io.compression.zstd.bufferPool.enabled=true}) at level 1
     * ({@code spark.io.compression.zstd.level}), no workers ({@code spark.io.compression.zstd.workers=0}), the
     * library's default strategy ({@code spark.io.compression.zstd.strategy} unset), behind a 32 KiB
     * {@code BufferedOutputStream} ({@code spark.io.compression.zstd.bufferSize}), closed at the end of the piece: one
     * zstd frame per piece, without checksum or content size. A partition is concatenated frames, which Spark's
     * reader and every standard zstd decoder read.
     */
    ZSTD("zstd") {
        @Override
        public Piece open(WritableByteChannel out) {
            return new Piece.Zstd(out);
        }

        @Override
        public boolean framesPieces() {
            return true;
        }

        /**
         * {@code ZSTD_compressBound}, which covers one frame written in a single pass, plus what the streaming
         * writer may add to it: the largest frame header, the block the buffered stream's flush at close ends, the
         * empty last block that ends the frame, and a checksum (which Spark does not write).
         */
        @Override
        public long pieceBound(long plainBytes) {
            return zstdCompressBound(plainBytes) + ZSTD_FRAME_HEADER_MAX + 2 * ZSTD_BLOCK_HEADER + ZSTD_CHECKSUM;
        }

        /**
         * Reads concatenated frames as Spark's {@code ZStdCompressionCodec.compressedInputStream} does: zstd-jni's
         * {@code ZstdInputStreamNoFinalizer} on the recycling pool behind a 32 KiB {@code BufferedInputStream}.
         */
        @Override
        public InputStream unframe(InputStream bytes) {
            try {
                return new BufferedInputStream(new ZstdInputStreamNoFinalizer(bytes, RecyclingBufferPool.INSTANCE),
                        ZSTD_BUFFER_SIZE);
            } catch (IOException e) {
                throw closing(bytes, new UncheckedIOException("opening a zstd stream failed", e));
            } catch (RuntimeException e) {
                throw closing(bytes, e);
            } catch (Error e) {
                throw closing(bytes, e);
            }
        }
    };

    /** {@code spark.io.compression.lz4.blockSize} default. */
    public static final int LZ4_BLOCK_SIZE = 32 * 1024;
    /** Seed of the XXHash32 checksum in Spark's {@code LZ4CompressionCodec}. */
    public static final int LZ4_BLOCK_CHECKSUM_SEED = 0x9747b28c;
    /** An LZ4 block stream block's header: magic, token, two lengths, checksum. */
    private static final long LZ4_BLOCK_HEADER = 21;
    /** {@code spark.io.compression.zstd.level} default. */
    public static final int ZSTD_LEVEL = 1;
    /** {@code spark.io.compression.zstd.bufferSize} default: the buffered streams around zstd's. */
    public static final int ZSTD_BUFFER_SIZE = 32 * 1024;
    /** {@code spark.io.compression.zstd.workers} default: compression on the writing thread. */
    private static final int ZSTD_WORKERS = 0;
    /** zstd's largest block ({@code ZSTD_BLOCKSIZE_MAX}), the unit of {@code ZSTD_compressBound}'s margin. */
    private static final long ZSTD_BLOCK_MAX = 128 * 1024;
    /** {@code ZSTD_FRAMEHEADERSIZE_MAX}: magic, descriptor, window, dictionary id, content size. */
    private static final long ZSTD_FRAME_HEADER_MAX = 18;
    /** {@code ZSTD_blockHeaderSize}. */
    private static final long ZSTD_BLOCK_HEADER = 3;
    /** A frame's optional XXH64 checksum, low 4 bytes. */
    private static final long ZSTD_CHECKSUM = 4;

    /**
     * {@code ZSTD_COMPRESSBOUND} from zstd.h, computed here rather than by zstd-jni's {@code Zstd.compressBound}: that
     * would load the native library (and print JDK 24+'s restricted-method warning) wherever a memory plan is made,
     * such as commands that only list configurations. A test checks it against the library's.
     */
    static long zstdCompressBound(long plainBytes) {
        return plainBytes + (plainBytes >>> 8)
                + (plainBytes < ZSTD_BLOCK_MAX ? (ZSTD_BLOCK_MAX - plainBytes) >>> 11 : 0);
    }

    /**
     * The worst case of one compressed 32 KiB block, in a class of its own: loading lz4-java's native library when
     * this enum is first used (to parse a codec name) would print JDK 24+'s restricted-method warning into the output
     * of commands that only list configurations.
     */
    private static final class Lz4Bound {
        static final long BLOCK = LZ4Factory.fastestInstance().fastCompressor().maxCompressedLength(LZ4_BLOCK_SIZE);
    }

    /** {@code failure}, after closing {@code bytes}, which the stream that failed to open would have owned. */
    private static <T extends Throwable> T closing(InputStream bytes, T failure) {
        try {
            bytes.close();
        } catch (IOException | RuntimeException suppressed) {
            failure.addSuppressed(suppressed);
        }
        return failure;
    }

    private final String label;

    ShuffleCodec(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /**
     * Starts one self-contained piece on {@code out}; {@link Piece#finish} completes it (and leaves {@code out} open).
     * Unless the codec frames pieces, bytes pass through.
     */
    public Piece open(WritableByteChannel out) {
        return new Piece.Plain(out);
    }

    /** Whether a piece's bytes change on their way out (so their size is known only once they are written). */
    public boolean framesPieces() {
        return false;
    }

    /** The most bytes a piece of {@code plainBytes} takes once framed. */
    public long pieceBound(long plainBytes) {
        return plainBytes;
    }

    /**
     * How a record's buffers are compressed inside its message (Arrow IPC body compression); compressed buffers come
     * from {@code scratch}. Only {@link #LZ4_FRAME} compresses them.
     */
    public CompressionCodec bodyCodec(BufferAllocator scratch) {
        return NoCompressionCodec.INSTANCE;
    }

    /** Whether {@link #bodyCodec} compresses a record's buffers (otherwise they are written as they are). */
    public boolean compressesBodies() {
        return false;
    }

    /** The most bytes a record buffer of {@code length} bytes takes in the message body. */
    public long bodyBufferBound(long length) {
        return length;
    }

    /** The most scratch memory compressing a record buffer of {@code length} bytes holds. */
    public long bodyScratchBound(long length) {
        return 0;
    }

    /** A partition's stream with the framing undone: what a reader parses. Closing it closes {@code bytes}. */
    public InputStream unframe(InputStream bytes) {
        return bytes;
    }

    public static ShuffleCodec parse(String parameter, String value) {
        for (ShuffleCodec c : values()) {
            if (c.label.equals(value)) {
                return c;
            }
        }
        throw new InvalidParameterException(parameter, value, "one of " + names());
    }

    public static String names() {
        return Arrays.stream(values()).map(ShuffleCodec::label).collect(Collectors.joining(", "));
    }

    /**
     * One framed piece being written: a channel whose bytes reach the underlying one framed. Whoever opens it owns it:
     * {@link #finish} completes it, and {@link #close} (try-with-resources) releases what it holds either way.
     */
    public abstract static class Piece implements WritableByteChannel {
        /** Completes the piece; the underlying channel stays open. */
        public abstract void finish() throws IOException;

        @Override
        public boolean isOpen() {
            return true;
        }

        /**
         * Releases what the piece holds (zstd's native stream); nothing once it is finished. A piece closed before
         * {@link #finish} stays incomplete, and nothing more reaches the underlying channel, which stays open.
         */
        @Override
        public void close() throws IOException {
            // Plain and lz4-block pieces hold only heap memory.
        }

        private static final class Plain extends Piece {
            private final WritableByteChannel out;

            Plain(WritableByteChannel out) {
                this.out = out;
            }

            @Override
            public int write(ByteBuffer src) throws IOException {
                int n = 0;
                while (src.hasRemaining()) {
                    n += out.write(src);
                }
                return n;
            }

            @Override
            public void finish() {
                // Nothing to close: the caller owns the underlying channel.
            }
        }

        /**
         * lz4-java's block stream, as Spark's {@code LZ4CompressionCodec} opens it ({@code LZ4BlockOutputStream} with
         * a 32 KiB block, the fast compressor, a streaming XXHash32 of seed {@code 0x9747b28c} as checksum, no sync
         * flush), written from byte buffers: a block that lies whole in the buffer written is compressed and hashed
         * where it lies (an Arrow buffer, off-heap); only a block cut across two writes is gathered in the block
         * buffer first. {@code LZ4BlockOutputStream} behind {@code Channels.newChannel} copied every byte twice on
         * the way: through an 8 KiB heap array, then into its block buffer. The bytes are the same
         * ({@code ShuffleCodecTest}, {@code OutputBytesAreFixedTest}): a block is the same 32 KiB of the stream
         * however it arrives, and XXHash32 of a block in one call is its streaming hash.
         */
        private static final class Lz4Block extends Piece {
            private static final byte[] MAGIC = {'L', 'Z', '4', 'B', 'l', 'o', 'c', 'k'};
            private static final int HEADER = MAGIC.length + 13;
            private static final int METHOD_RAW = 0x10;
            private static final int METHOD_LZ4 = 0x20;
            /** {@code LZ4BlockOutputStream}'s token level: log2 of the block size, less 10. */
            private static final int LEVEL = 32 - Integer.numberOfLeadingZeros(LZ4_BLOCK_SIZE - 1) - 10;
            private static final LZ4Compressor COMPRESSOR = LZ4Factory.fastestInstance().fastCompressor();
            private static final XXHash32 HASH = XXHashFactory.fastestInstance().hash32();

            private final WritableByteChannel out;
            /** Heap, as the stream's own buffers: a piece per record, as Spark opens a stream per record. */
            private final ByteBuffer block = ByteBuffer.allocate(LZ4_BLOCK_SIZE);
            private final ByteBuffer framed = ByteBuffer.allocate(HEADER + COMPRESSOR.maxCompressedLength(LZ4_BLOCK_SIZE))
                    .order(ByteOrder.LITTLE_ENDIAN);
            private boolean finished;

            Lz4Block(WritableByteChannel out) {
                this.out = out;
            }

            @Override
            public int write(ByteBuffer src) throws IOException {
                if (finished) {
                    throw new ClosedChannelException();
                }
                int n = src.remaining();
                // lz4-java's native compressor and hash read a ByteBuffer only through its array or its address; a
                // read-only heap buffer (a BytesPayload's: Spark's serialized rows in Sluice's manager) has neither, and
                // lz4-java falls back to its Java code for it (LZ4JNICompressor and XXHash32JNI: "hasArray() ||
                // isDirect()"), 1.7 to 2.3 times slower a block here. Such a source is copied into the block first.
                boolean nativeReadable = src.hasArray() || src.isDirect();
                while (src.hasRemaining()) {
                    if (block.position() == 0 && src.remaining() >= LZ4_BLOCK_SIZE && nativeReadable) {
                        writeBlock(src, src.position(), LZ4_BLOCK_SIZE);
                        src.position(src.position() + LZ4_BLOCK_SIZE);
                    } else {
                        int take = Math.min(block.remaining(), src.remaining());
                        block.put(block.position(), src, src.position(), take);
                        block.position(block.position() + take);
                        src.position(src.position() + take);
                        if (!block.hasRemaining()) {
                            writeBlock(block, 0, LZ4_BLOCK_SIZE);
                            block.clear();
                        }
                    }
                }
                return n;
            }

            /** One block of the stream: header (magic, token, compressed and original length, checksum), bytes. */
            private void writeBlock(ByteBuffer from, int offset, int length) throws IOException {
                // lz4-java's checksum adapter keeps the low 28 bits of the hash (StreamingXXHash32.asChecksum).
                int check = HASH.hash(from, offset, length, LZ4_BLOCK_CHECKSUM_SEED) & 0x0FFFFFFF;
                int compressed = COMPRESSOR.compress(from, offset, length, framed, HEADER, framed.capacity() - HEADER);
                int method = METHOD_LZ4;
                if (compressed >= length) {
                    method = METHOD_RAW;
                    compressed = length;
                    framed.put(HEADER, from, offset, length);
                }
                writeFramed(method, compressed, length, check);
            }

            /** Writes {@code framed}: the header (magic, token, both lengths, checksum), then the block after it. */
            private void writeFramed(int method, int compressed, int length, int check) throws IOException {
                framed.put(0, MAGIC).put(MAGIC.length, (byte) (method | LEVEL)).putInt(MAGIC.length + 1, compressed)
                        .putInt(MAGIC.length + 5, length).putInt(MAGIC.length + 9, check);
                framed.limit(HEADER + compressed).position(0);
                while (framed.hasRemaining()) {
                    out.write(framed);
                }
                framed.clear();
            }

            @Override
            public void finish() throws IOException {
                if (!finished) {
                    finished = true;
                    if (block.position() > 0) {
                        writeBlock(block, 0, block.position());
                        block.clear();
                    }
                    writeFramed(METHOD_RAW, 0, 0, 0); // the end mark: a raw block of no bytes
                }
            }
        }

        /**
         * Spark's zstd stream over one piece. Its native compression context is freed when the stream closes: at
         * {@link #finish}, which ends the frame, or at {@link #close}, which ends it into nothing.
         */
        private static final class Zstd extends Piece {
            private final Unclosable sink;
            private final OutputStream stream;
            private final WritableByteChannel in;
            private boolean closed;

            Zstd(WritableByteChannel out) {
                this.sink = new Unclosable(out);
                ZstdOutputStreamNoFinalizer zstd;
                try {
                    zstd = new ZstdOutputStreamNoFinalizer(Channels.newOutputStream(sink), RecyclingBufferPool.INSTANCE);
                } catch (IOException e) {
                    throw new UncheckedIOException("creating a zstd stream failed", e);
                }
                try {
                    zstd.setLevel(ZSTD_LEVEL).setWorkers(ZSTD_WORKERS);
                } catch (IOException | RuntimeException e) {
                    sink.discard();
                    try {
                        zstd.close();
                    } catch (IOException | RuntimeException suppressed) {
                        e.addSuppressed(suppressed);
                    }
                    throw e instanceof IOException
                            ? new UncheckedIOException("configuring a zstd stream failed", (IOException) e)
                            : (RuntimeException) e;
                }
                this.stream = new BufferedOutputStream(zstd, ZSTD_BUFFER_SIZE);
                this.in = Channels.newChannel(stream);
            }

            @Override
            public int write(ByteBuffer src) throws IOException {
                if (closed) {
                    throw new ClosedChannelException();
                }
                return in.write(src);
            }

            @Override
            public boolean isOpen() {
                return !closed;
            }

            /** Closes the buffered stream as Spark's writer does: flushes it, ends the frame, frees the context. */
            @Override
            public void finish() throws IOException {
                if (!closed) {
                    closed = true;
                    stream.close();
                }
            }

            @Override
            public void close() throws IOException {
                if (!closed) {
                    closed = true;
                    sink.discard();
                    stream.close();
                }
            }
        }
    }

    /**
     * Keeps a stream wrapper from closing the channel it writes to; once told to {@link #discard}, drops what it is
     * given, so that a piece given up can end its stream without a byte more reaching the channel.
     */
    private static final class Unclosable implements WritableByteChannel {
        private final WritableByteChannel out;
        private boolean discarding;

        Unclosable(WritableByteChannel out) {
            this.out = out;
        }

        void discard() {
            discarding = true;
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            if (discarding) {
                int n = src.remaining();
                src.position(src.limit());
                return n;
            }
            return out.write(src);
        }

        @Override
        public boolean isOpen() {
            return out.isOpen();
        }

        @Override
        public void close() {
            // The caller owns the channel.
        }
    }
}
