package dev.sluice.core.serde;

import dev.sluice.core.InvalidParameterException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.util.Arrays;
import java.util.stream.Collectors;
import net.jpountz.lz4.LZ4BlockInputStream;
import net.jpountz.lz4.LZ4BlockOutputStream;
import net.jpountz.lz4.LZ4Factory;
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
    };

    /** {@code spark.io.compression.lz4.blockSize} default. */
    public static final int LZ4_BLOCK_SIZE = 32 * 1024;
    /** Seed of the XXHash32 checksum in Spark's {@code LZ4CompressionCodec}. */
    public static final int LZ4_BLOCK_CHECKSUM_SEED = 0x9747b28c;
    /** An LZ4 block stream block's header: magic, token, two lengths, checksum. */
    private static final long LZ4_BLOCK_HEADER = 21;

    /**
     * The worst case of one compressed 32 KiB block, in a class of its own: loading lz4-java's native library when
     * this enum is first used (to parse a codec name) would print JDK 24+'s restricted-method warning into the output
     * of commands that only list configurations.
     */
    private static final class Lz4Bound {
        static final long BLOCK = LZ4Factory.fastestInstance().fastCompressor().maxCompressedLength(LZ4_BLOCK_SIZE);
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

    /** One framed piece being written: a channel whose bytes reach the underlying one framed. */
    public abstract static class Piece implements WritableByteChannel {
        /** Completes the piece; the underlying channel stays open. */
        public abstract void finish() throws IOException;

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() throws IOException {
            finish();
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

        private static final class Lz4Block extends Piece {
            private final LZ4BlockOutputStream lz4;
            private final WritableByteChannel in;
            private boolean finished;

            Lz4Block(WritableByteChannel out) {
                OutputStream sink = Channels.newOutputStream(new Unclosable(out));
                this.lz4 = new LZ4BlockOutputStream(sink, LZ4_BLOCK_SIZE, LZ4Factory.fastestInstance().fastCompressor(),
                        XXHashFactory.fastestInstance().newStreamingHash32(LZ4_BLOCK_CHECKSUM_SEED).asChecksum(), false);
                this.in = Channels.newChannel(lz4);
            }

            @Override
            public int write(ByteBuffer src) throws IOException {
                return in.write(src);
            }

            @Override
            public void finish() throws IOException {
                if (!finished) {
                    finished = true;
                    lz4.finish();
                }
            }
        }
    }

    /** Keeps a stream wrapper from closing the channel it writes to. */
    private static final class Unclosable implements WritableByteChannel {
        private final WritableByteChannel out;

        Unclosable(WritableByteChannel out) {
            this.out = out;
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
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
