package dev.sluice.core.serde;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Sluice's LZ4_FRAME buffers and Arrow Java's own codec (commons-compress) read each other's output. */
class Lz4FrameCodecTest {
    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {0, 1, 100, 65_535, 65_536, 65_537, 300_000})
    void arrowsCodecReadsOursAndOursReadsArrows(int length) {
        try (BufferAllocator allocator = new RootAllocator()) {
            byte[] data = sample(length);
            CompressionCodec ours = new Lz4FrameCodec(allocator);
            CompressionCodec arrows = CommonsCompressionFactory.INSTANCE.createCodec(CompressionUtil.CodecType.LZ4_FRAME);
            assertEquals(data.length, roundTrip(data, ours, arrows, allocator).length);
            assertEquals(java.util.Arrays.toString(data), java.util.Arrays.toString(roundTrip(data, ours, arrows, allocator)));
            assertEquals(java.util.Arrays.toString(data), java.util.Arrays.toString(roundTrip(data, arrows, ours, allocator)));
            assertEquals(0, allocator.getAllocatedMemory());
        }
    }

    private static byte[] roundTrip(byte[] data, CompressionCodec compress, CompressionCodec decompress,
                                    BufferAllocator allocator) {
        ArrowBuf raw = allocator.buffer(Math.max(1, data.length));
        raw.setBytes(0, data);
        raw.writerIndex(data.length);
        // compress() consumes the raw buffer and decompress() the packed one, as in Arrow's IPC paths.
        ArrowBuf packed = compress.compress(allocator, raw);
        try (ArrowBuf unpacked = decompress.decompress(allocator, packed)) {
            byte[] out = new byte[(int) unpacked.writerIndex()];
            unpacked.getBytes(0, out);
            return out;
        }
    }

    /** Half compressible text, half noise, so that both compressed and stored blocks occur. */
    private static byte[] sample(int length) {
        byte[] data = new byte[length];
        Random random = new Random(length);
        for (int i = 0; i < length; i++) {
            data[i] = (i / 70_000) % 2 == 0 ? (byte) ('a' + (i % 13)) : (byte) random.nextInt();
        }
        return data;
    }
}
