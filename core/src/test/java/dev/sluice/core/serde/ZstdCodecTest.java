package dev.sluice.core.serde;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.RecyclingBufferPool;
import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdOutputStreamNoFinalizer;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code zstd} codec frames each piece as Spark's {@code ZStdCompressionCodec} frames a stream, reads concatenated
 * frames, bounds a piece truly, releases what an unfinished piece holds, and loads no native code to be named.
 */
class ZstdCodecTest {
    private static final ShuffleCodec CODEC = ShuffleCodec.ZSTD;
    private static final int ZSTD_MAGIC = 0xFD2FB528;

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(longs = {0, 1, 8, 255, 256, 2047, 2048, 32_768, 131_071, 131_072, 131_073, 1_000_000, 4_194_305,
            1L << 32})
    void theBoundStartsFromZstdsOwnCompressBound(long plainBytes) {
        assertEquals(Zstd.compressBound(plainBytes), ShuffleCodec.zstdCompressBound(plainBytes));
        assertEquals(Zstd.compressBound(plainBytes) + 18 + 2 * 3 + 4, CODEC.pieceBound(plainBytes));
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {1, 8, 100, 32_767, 32_768, 32_769, 131_071, 131_072, 131_073, 1_000_000, 4_194_305})
    void anIncompressiblePieceStaysWithinItsBoundAndReadsBack(int plainBytes) throws IOException {
        byte[] plain = noise(plainBytes, plainBytes);
        byte[] framed = piece(plain, 8192);
        assertTrue(framed.length <= CODEC.pieceBound(plainBytes),
                framed.length + " bytes framed, bound " + CODEC.pieceBound(plainBytes));
        assertTrue(framed.length > plainBytes, "noise does not compress: " + framed.length);
        assertArrayEquals(plain, readAll(CODEC.unframe(new ByteArrayInputStream(framed))));
    }

    /**
     * Spark 4.1.0's {@code ZStdCompressionCodec.compressedOutputStream} at its defaults, closed at the end of the
     * stream, as Spark's writer closes it: the bytes a piece must have.
     */
    @Test
    void aPieceHoldsTheBytesOfSparksZstdStreamAsOneFrameWithoutChecksumOrContentSize() throws IOException {
        byte[] plain = text(200_000);
        ByteArrayOutputStream spark = new ByteArrayOutputStream();
        try (OutputStream out = new BufferedOutputStream(new ZstdOutputStreamNoFinalizer(spark,
                RecyclingBufferPool.INSTANCE).setLevel(1).setWorkers(0), 32 * 1024)) {
            for (int at = 0; at < plain.length; at += 1000) {
                out.write(plain, at, Math.min(1000, plain.length - at));
            }
        }
        byte[] ours = piece(plain, 777);
        assertArrayEquals(spark.toByteArray(), ours);
        ByteBuffer frame = ByteBuffer.wrap(ours).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        assertEquals(ZSTD_MAGIC, frame.getInt(0), "zstd's magic number first");
        int descriptor = frame.get(4) & 0xff;
        assertEquals(0, descriptor >>> 6, "no content size field");
        assertEquals(0, descriptor & 0x20, "not a single segment (the size was never pledged)");
        assertEquals(0, descriptor & 0x04, "no checksum, as Spark's stream");
        assertEquals(ours.length, Zstd.findFrameCompressedSize(ours), "one frame, nothing after it");
        assertTrue(ours.length < plain.length / 2, "text compresses: " + ours.length);
    }

    @Test
    void aPartitionOfPiecesIsConcatenatedFramesThatReadAsOneStream() throws IOException {
        List<byte[]> pieces = List.of("header".getBytes(StandardCharsets.US_ASCII), text(70_000), noise(9, 50_000),
                "end".getBytes(StandardCharsets.US_ASCII));
        ByteArrayOutputStream partition = new ByteArrayOutputStream();
        ByteArrayOutputStream plain = new ByteArrayOutputStream();
        for (byte[] p : pieces) {
            partition.write(piece(p, 4096));
            plain.write(p);
        }
        byte[] bytes = partition.toByteArray();
        int frames = 0;
        for (int at = 0; at < bytes.length; frames++) {
            assertEquals(ZSTD_MAGIC, ByteBuffer.wrap(bytes, at, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt(),
                    "frame " + frames + " starts at byte " + at);
            at += (int) Zstd.findFrameCompressedSize(bytes, at);
        }
        assertEquals(pieces.size(), frames, "one frame per piece");
        assertArrayEquals(plain.toByteArray(), readAll(CODEC.unframe(new ByteArrayInputStream(bytes))));
    }

    @Test
    void aTruncatedPartitionFailsToReadInsteadOfEndingEarly() throws IOException {
        byte[] framed = piece(text(100_000), 4096);
        byte[] cut = java.util.Arrays.copyOf(framed, framed.length - 2);
        assertThrows(IOException.class, () -> readAll(CODEC.unframe(new ByteArrayInputStream(cut))));
    }

    @Test
    void aPieceClosedUnfinishedSendsNothingMoreAndRefusesWrites() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ShuffleCodec.Piece piece = CODEC.open(Channels.newChannel(out));
        piece.write(ByteBuffer.wrap(text(1000)));
        piece.close();
        assertEquals(0, out.size(), "bytes still in the 32 KiB buffer reached the channel of a piece given up");
        assertThrows(ClosedChannelException.class, () -> piece.write(ByteBuffer.wrap(new byte[1])));
        piece.finish();
        assertEquals(0, out.size(), "finish after close wrote");

        ByteArrayOutputStream finished = new ByteArrayOutputStream();
        try (ShuffleCodec.Piece done = CODEC.open(Channels.newChannel(finished))) {
            done.write(ByteBuffer.wrap(text(1000)));
            done.finish();
        }
        assertArrayEquals(text(1000), readAll(CODEC.unframe(new ByteArrayInputStream(finished.toByteArray()))),
                "closing a finished piece changes nothing");
    }

    /**
     * Naming the codec, listing codecs and bounding a piece load no native library, so commands that only list or
     * plan configurations print no JDK 24+ restricted-method warning; writing a piece loads it. In a JVM of its own,
     * without {@code --enable-native-access}.
     */
    @Test
    void namingAndBoundingTheCodecLoadsNoNativeLibrary() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process probe = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                LazyProbe.class.getName()).start();
        assertTrue(probe.waitFor(60, TimeUnit.SECONDS), "the probe did not end");
        String out = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        String err = new String(probe.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, probe.exitValue(), out + "\n" + err);
        assertEquals("loaded after parse and bound: false; after a piece: true", out, err);
    }

    /** Run by {@link #namingAndBoundingTheCodecLoadsNoNativeLibrary} in a JVM of its own. */
    public static final class LazyProbe {
        public static void main(String[] args) throws IOException {
            ShuffleCodec codec = ShuffleCodec.parse("--codec", "zstd");
            ShuffleCodec.names();
            codec.pieceBound(1 << 20);
            codec.framesPieces();
            boolean before = com.github.luben.zstd.util.Native.isLoaded();
            piece(new byte[10], 10);
            System.out.println("loaded after parse and bound: " + before + "; after a piece: "
                    + com.github.luben.zstd.util.Native.isLoaded());
        }
    }

    /** {@code plain} as one zstd piece, written in slices of {@code slice} bytes. */
    static byte[] piece(byte[] plain, int slice) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ShuffleCodec.Piece piece = CODEC.open(Channels.newChannel(out))) {
            for (int at = 0; at < plain.length; at += slice) {
                ByteBuffer part = ByteBuffer.wrap(plain, at, Math.min(slice, plain.length - at));
                while (part.hasRemaining()) {
                    piece.write(part);
                }
            }
            piece.finish();
        }
        return out.toByteArray();
    }

    private static byte[] readAll(InputStream in) throws IOException {
        try (in) {
            return in.readAllBytes();
        }
    }

    private static byte[] noise(long seed, int length) {
        byte[] bytes = new byte[length];
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) random.nextInt(256);
        }
        return bytes;
    }

    private static byte[] text(int length) {
        byte[] bytes = new byte[length];
        SplittableRandom random = new SplittableRandom(length);
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) ('a' + random.nextInt(4) + (i % 7));
        }
        return bytes;
    }
}
