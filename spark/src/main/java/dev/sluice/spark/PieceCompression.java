package dev.sluice.spark;

import dev.sluice.core.serde.BytesPayload;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.spi.Payload;
import dev.sluice.spi.memory.HostAllocator;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.Locale;
import java.util.function.LongUnaryOperator;
import org.apache.spark.SparkConf;
import org.apache.spark.io.CompressionCodec;
import org.apache.spark.io.CompressionCodec$;

/**
 * How a piece of a partition's serialized rows (one batch's) is compressed, so that Spark's reader, which decompresses
 * a partition with {@code spark.io.compression.codec} as one stream, reads a partition's pieces, made apart and
 * concatenated, as that stream. Two ways, chosen from the application's settings ({@link #of}):
 *
 * <ul>
 *   <li><b>Sluice's framing</b> ({@link ShuffleCodec}) where it is Spark's byte for byte: lz4 in 32 KiB blocks and
 *       zstd at Spark's defaults (docs/fidelity.md, "Codec"), or no compression with {@code spark.shuffle.compress}
 *       false. The harness's runs use the same code, so the two measure one thing.
 *   <li><b>Spark's own codec stream</b> ({@code CompressionCodec.createCodec(conf)}, the application's settings, a
 *       stream per piece) for every other codec Spark itself concatenates
 *       ({@code CompressionCodec.supportsConcatenationOfSerializedStreams}: lz4 at any block size, lzf, snappy, zstd
 *       at any level), as Spark's {@code UnsafeShuffleWriter} concatenates its spills' streams when the codec allows
 *       it, and as Comet's JVM shuffle compresses with Spark's codec.
 * </ul>
 *
 * A codec Spark does not concatenate gives none: that shuffle goes to Spark's own writer ({@link Eligibility}).
 */
abstract class PieceCompression {
    /** The record of one partition's piece: its serialized rows, compressed when the strategy writes it. */
    abstract Payload piece(ByteBuffer serialized, long rows);

    /** What the log and the tests call it. */
    abstract String describe();

    /** The compression for {@code conf}'s shuffles, or null where Spark's reader could not read pieces as a stream. */
    static PieceCompression of(SparkConf conf) {
        if (!conf.getBoolean("spark.shuffle.compress", true)) {
            return new Framed(ShuffleCodec.NONE);
        }
        String name = CompressionCodec$.MODULE$.getCodecName(conf);
        String shortName = shortName(name);
        if (shortName.equals("lz4") && conf.getSizeAsBytes("spark.io.compression.lz4.blockSize", "32k") == 32 * 1024) {
            return new Framed(ShuffleCodec.LZ4_BLOCK);
        }
        if (shortName.equals("zstd") && conf.getInt("spark.io.compression.zstd.level", 1) == 1
                && conf.getInt("spark.io.compression.zstd.workers", 0) == 0
                && conf.getSizeAsBytes("spark.io.compression.zstd.bufferSize", "32k") == 32 * 1024
                && !conf.contains("spark.io.compression.zstd.strategy")) {
            return new Framed(ShuffleCodec.ZSTD);
        }
        CompressionCodec codec = CompressionCodec$.MODULE$.createCodec(conf, name);
        if (!CompressionCodec$.MODULE$.supportsConcatenationOfSerializedStreams(codec)) {
            return null;
        }
        return new SparkStreams(codec, shortName, bound(shortName, conf));
    }

    /** Spark's short name of the codec {@code name} (a short name or a class), or the class name for one of its own. */
    private static String shortName(String name) {
        java.util.Map<String, String> codecs =
                scala.jdk.javaapi.CollectionConverters.asJava(CompressionCodec$.MODULE$.shortCompressionCodecNames());
        String lower = name.toLowerCase(Locale.ROOT);
        if (codecs.containsKey(lower)) {
            return lower;
        }
        return codecs.entrySet().stream().filter(e -> e.getValue().equals(name)).map(java.util.Map.Entry::getKey)
                .findFirst().orElse(name);
    }

    /**
     * The most bytes a piece of {@code n} serialized bytes takes through Spark's codec {@code shortName}, for the
     * strategies' buffers ({@link Payload#serializedBound}): each codec's worst case on incompressible bytes, per
     * block, with its headers. lz4-java's {@code LZ4BlockOutputStream}: 21 bytes of header a block and at most
     * {@code B + B/255 + 16} of compressed block, and an empty last block; snappy-java's {@code SnappyOutputStream}: a
     * 16-byte stream header, 4 bytes a block and at most {@code 32 + B + B/6}; lzf's chunks of at most 64 KiB with a
     * 7-byte header; zstd's {@code ZSTD_compressBound} ({@code n + n/256 + 512}) with room for its block headers.
     */
    static LongUnaryOperator bound(String shortName, SparkConf conf) {
        switch (shortName) {
            case "lz4" -> {
                long block = conf.getSizeAsBytes("spark.io.compression.lz4.blockSize", "32k");
                return n -> n + (n / block + 2) * (21 + block / 255 + 16 + 1);
            }
            case "snappy" -> {
                long block = conf.getSizeAsBytes("spark.io.compression.snappy.blockSize", "32k");
                return n -> 16 + n + (n / block + 2) * (4 + 32 + block / 6 + 1);
            }
            case "lzf" -> {
                return n -> n + (n / 65_535 + 2) * 7;
            }
            default -> {
                return n -> n + n / 128 + 1024;
            }
        }
    }

    /** Sluice's own framing, Spark's byte for byte. */
    static final class Framed extends PieceCompression {
        private final ShuffleCodec codec;

        Framed(ShuffleCodec codec) {
            this.codec = codec;
        }

        @Override
        Payload piece(ByteBuffer serialized, long rows) {
            return new BytesPayload(serialized, rows, codec);
        }

        @Override
        String describe() {
            return "Sluice's " + codec.label() + " framing";
        }
    }

    /** Spark's codec, one compressed stream a piece. */
    static final class SparkStreams extends PieceCompression {
        private final CompressionCodec codec;
        private final String name;
        private final LongUnaryOperator bound;

        SparkStreams(CompressionCodec codec, String name, LongUnaryOperator bound) {
            this.codec = codec;
            this.name = name;
            this.bound = bound;
        }

        @Override
        Payload piece(ByteBuffer serialized, long rows) {
            return new Piece(serialized.duplicate(), rows);
        }

        @Override
        String describe() {
            return "Spark's " + name + " codec (" + codec.getClass().getName() + "), a stream a piece";
        }

        /** One piece through Spark's codec; read-only, so any thread may write it, any number of times. */
        private final class Piece implements Payload {
            private final ByteBuffer bytes;
            private final long rows;

            Piece(ByteBuffer bytes, long rows) {
                this.bytes = bytes;
                this.rows = rows;
            }

            @Override
            public long rows() {
                return rows;
            }

            @Override
            public long inputBytes() {
                return bytes.remaining();
            }

            @Override
            public long serializedBound() {
                return bound.applyAsLong(bytes.remaining());
            }

            @Override
            public long writeTo(WritableByteChannel out, HostAllocator scratch) throws IOException {
                Unclosed target = new Unclosed(out);
                // Closing the codec's stream ends the piece (its last block, its frame) and closes what it wraps:
                // Unclosed, which leaves the strategy's channel open.
                try (OutputStream compressed = codec.compressedOutputStream(target)) {
                    ByteBuffer plain = bytes.duplicate();
                    if (plain.hasArray()) {
                        compressed.write(plain.array(), plain.arrayOffset() + plain.position(), plain.remaining());
                    } else {
                        byte[] chunk = new byte[64 * 1024];
                        while (plain.hasRemaining()) {
                            int n = Math.min(chunk.length, plain.remaining());
                            plain.get(chunk, 0, n);
                            compressed.write(chunk, 0, n);
                        }
                    }
                }
                return target.written;
            }
        }
    }

    /** The strategy's channel as a stream that counts what it is given and is never closed through. */
    private static final class Unclosed extends OutputStream {
        private final WritableByteChannel out;
        long written;

        Unclosed(WritableByteChannel out) {
            this.out = out;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            ByteBuffer buffer = ByteBuffer.wrap(b, off, len);
            while (buffer.hasRemaining()) {
                written += out.write(buffer);
            }
        }

        @Override
        public void close() {
            // The channel is the strategy's.
        }
    }
}
