package dev.sluice.core.serde;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ClosedChannelException;
import java.util.Random;
import net.jpountz.lz4.LZ4BlockOutputStream;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.xxhash.XXHashFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The lz4-block piece writes what Spark's {@code LZ4CompressionCodec} stream writes, however its bytes arrive. */
class Lz4BlockPieceTest {
    /** What {@code LZ4BlockOutputStream}, opened as Spark's codec opens it, writes for {@code bytes}. */
    private static byte[] spark(byte[] bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (LZ4BlockOutputStream lz4 = new LZ4BlockOutputStream(out, ShuffleCodec.LZ4_BLOCK_SIZE,
                LZ4Factory.fastestInstance().fastCompressor(),
                XXHashFactory.fastestInstance().newStreamingHash32(ShuffleCodec.LZ4_BLOCK_CHECKSUM_SEED).asChecksum(),
                false)) {
            lz4.write(bytes);
            lz4.finish();
        }
        return out.toByteArray();
    }

    /**
     * The piece's bytes for {@code bytes}, handed over in writes of random sizes from heap or direct buffers, or
     * read-only views of heap ones (a {@link BytesPayload}'s, whose array lz4-java's native code cannot reach).
     */
    private static byte[] piece(byte[] bytes, boolean direct, boolean readOnly, long seed) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Random random = new Random(seed);
        try (ShuffleCodec.Piece piece = ShuffleCodec.LZ4_BLOCK.open(Channels.newChannel(out))) {
            int at = 0;
            while (at < bytes.length) {
                int n = Math.min(bytes.length - at, random.nextInt(4) == 0 ? 1 + random.nextInt(100_000)
                        : 1 + random.nextInt(9_000));
                ByteBuffer src = direct ? ByteBuffer.allocateDirect(n + 3) : ByteBuffer.allocate(n + 3);
                src.position(3); // a buffer whose bytes do not start at 0, as a slice of an Arrow buffer
                src.put(bytes, at, n).position(3);
                ByteBuffer given = readOnly ? src.asReadOnlyBuffer() : src;
                assertEquals(n, piece.write(given));
                assertEquals(0, given.remaining());
                at += n;
            }
            piece.finish();
        }
        return out.toByteArray();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 32 * 1024 - 1, 32 * 1024, 32 * 1024 + 1, 5 * 32 * 1024, 1_000_003})
    void theBytesAreSparksStreamsForAnyLengthAndAnyCutsOfTheWrites(int length) throws IOException {
        Random random = new Random(length);
        byte[] compressible = new byte[length];
        for (int i = 0; i < length; i++) {
            compressible[i] = (byte) (random.nextInt(8) == 0 ? random.nextInt() : i % 61);
        }
        byte[] incompressible = new byte[length];
        random.nextBytes(incompressible); // blocks that go raw
        for (byte[] bytes : new byte[][] {compressible, incompressible}) {
            byte[] expected = spark(bytes);
            for (long seed = 0; seed < 3; seed++) {
                assertArrayEquals(expected, piece(bytes, true, false, seed), "direct buffers, cuts " + seed);
                assertArrayEquals(expected, piece(bytes, false, false, seed), "heap buffers, cuts " + seed);
                assertArrayEquals(expected, piece(bytes, false, true, seed), "read-only heap buffers, cuts " + seed);
            }
            try (var in = ShuffleCodec.LZ4_BLOCK.unframe(new ByteArrayInputStream(piece(bytes, true, false, 9)))) {
                assertArrayEquals(bytes, in.readAllBytes(), "Spark's reader reads it back");
            }
        }
    }

    @Test
    void aFinishedPieceTakesNoMoreBytes() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ShuffleCodec.Piece piece = ShuffleCodec.LZ4_BLOCK.open(Channels.newChannel(out));
        piece.finish();
        int ended = out.size();
        piece.finish();
        assertThrows(ClosedChannelException.class, () -> piece.write(ByteBuffer.allocate(1)));
        assertEquals(ended, out.size(), "finish ends the stream once");
    }
}
