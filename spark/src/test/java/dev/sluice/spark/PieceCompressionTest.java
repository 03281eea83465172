package dev.sluice.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.spi.Payload;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.util.List;
import java.util.Random;
import org.apache.spark.SparkConf;
import org.apache.spark.io.CompressionCodec;
import org.apache.spark.io.CompressionCodec$;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Pieces compressed apart, concatenated, read back by Spark's own codec as one stream (its shuffle reader's
 * {@code compressedInputStream}); every piece within the bound the strategies size their buffers by. No Spark
 * context: the codecs and their settings alone.
 */
class PieceCompressionTest {
    /** Sizes of the pieces: empty, tiny, a block's worth, several blocks, incompressible or repetitive. */
    private static final List<Integer> SIZES = List.of(0, 1, 100, 32 * 1024, 200_000, 1 << 20);

    @ParameterizedTest
    @ValueSource(strings = {"spark.io.compression.codec=snappy", "spark.io.compression.codec=lzf",
        "spark.io.compression.codec=zstd;spark.io.compression.zstd.level=3",
        "spark.io.compression.lz4.blockSize=64k", "spark.io.compression.lz4.blockSize=1k",
        "spark.io.compression.codec=snappy;spark.io.compression.snappy.blockSize=1k"})
    void piecesThroughSparksCodecReadAsOneStreamAndStayWithinTheirBound(String settings) throws IOException {
        SparkConf conf = conf(settings);
        PieceCompression compression = PieceCompression.of(conf);
        assertInstanceOf(PieceCompression.SparkStreams.class, compression, settings);
        assertPiecesReadBack(compression, CompressionCodec$.MODULE$.createCodec(conf), settings);
    }

    @Test
    void sparksDefaultsKeepSluicesFramingAndNoCompressionIsPlainBytes() throws IOException {
        assertEquals("Sluice's lz4-block framing", PieceCompression.of(new SparkConf(false)).describe());
        SparkConf zstd = conf("spark.io.compression.codec=zstd");
        assertEquals("Sluice's zstd framing", PieceCompression.of(zstd).describe());
        // Sluice's framing is Spark's byte for byte: Spark's own codec reads it.
        assertPiecesReadBack(PieceCompression.of(new SparkConf(false)),
                CompressionCodec$.MODULE$.createCodec(new SparkConf(false)), "lz4 defaults");
        assertPiecesReadBack(PieceCompression.of(zstd), CompressionCodec$.MODULE$.createCodec(zstd), "zstd defaults");
        PieceCompression plain = PieceCompression.of(conf("spark.shuffle.compress=false"));
        assertEquals("Sluice's none framing", plain.describe());
        byte[] bytes = bytes(1000, true);
        assertArrayEquals(bytes, written(plain.piece(ByteBuffer.wrap(bytes), 1)));
    }

    @Test
    void aCodecSparkDoesNotConcatenateGivesNoneAndSaysSo() {
        SparkConf conf = conf("spark.io.compression.codec=" + Unconcatenable.class.getName());
        assertNull(PieceCompression.of(conf));
    }

    private static void assertPiecesReadBack(PieceCompression compression, CompressionCodec codec, String settings)
            throws IOException {
        ByteArrayOutputStream plain = new ByteArrayOutputStream();
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        boolean incompressible = false;
        for (int size : SIZES) {
            incompressible = !incompressible;
            byte[] bytes = bytes(size, incompressible);
            Payload piece = compression.piece(ByteBuffer.wrap(bytes), 1);
            byte[] written = written(piece);
            assertTrue(written.length <= piece.serializedBound(), settings + ": a piece of " + size + " bytes took "
                    + written.length + ", over its bound " + piece.serializedBound());
            assertArrayEquals(written, written(piece), settings + ": a piece written twice");
            plain.write(bytes);
            stream.write(written);
        }
        try (InputStream read = codec.compressedInputStream(new java.io.ByteArrayInputStream(stream.toByteArray()))) {
            assertArrayEquals(plain.toByteArray(), read.readAllBytes(), settings + ": the pieces read as one stream");
        }
    }

    private static byte[] written(Payload piece) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long n = piece.writeTo(Channels.newChannel(out), null);
        assertEquals(out.size(), n, "the bytes the piece says it wrote");
        return out.toByteArray();
    }

    private static byte[] bytes(int size, boolean incompressible) {
        byte[] bytes = new byte[size];
        if (incompressible) {
            new Random(size).nextBytes(bytes);
        } else {
            for (int i = 0; i < size; i++) {
                bytes[i] = (byte) ("row-" + (i / 16)).charAt(i % 4);
            }
        }
        return bytes;
    }

    private static SparkConf conf(String settings) {
        SparkConf conf = new SparkConf(false);
        for (String setting : settings.split(";")) {
            int eq = setting.indexOf('=');
            conf.set(setting.substring(0, eq), setting.substring(eq + 1));
        }
        return conf;
    }

    /** A codec Spark does not concatenate (not one of its four): a pass-through. */
    public static final class Unconcatenable implements CompressionCodec {
        public Unconcatenable(SparkConf conf) {}

        @Override
        public OutputStream compressedOutputStream(OutputStream s) {
            return s;
        }

        @Override
        public InputStream compressedInputStream(InputStream s) {
            return s;
        }
    }
}
