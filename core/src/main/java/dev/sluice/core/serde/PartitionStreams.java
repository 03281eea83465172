package dev.sluice.core.serde;

import java.io.InputStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.compression.NoCompressionCodec;
import org.apache.arrow.vector.ipc.ArrowStreamReader;

/** Opens a partition's bytes as an Arrow stream: what a reduce task does. */
public final class PartitionStreams {
    private PartitionStreams() {}

    /** An {@link ArrowStreamReader} over one partition's bytes, the codec's framing undone; closing it closes {@code bytes}. */
    public static ArrowStreamReader open(InputStream bytes, ShuffleCodec codec, BufferAllocator allocator) {
        return reader(codec.unframe(bytes), allocator);
    }

    /** An {@link ArrowStreamReader} over a stream whose framing is undone already ({@link ShuffleCodec#unframe}). */
    public static ArrowStreamReader reader(InputStream unframed, BufferAllocator allocator) {
        return new ArrowStreamReader(unframed, allocator, new Lz4FrameFactory(allocator));
    }

    private static final class Lz4FrameFactory implements CompressionCodec.Factory {
        private final BufferAllocator allocator;

        Lz4FrameFactory(BufferAllocator allocator) {
            this.allocator = allocator;
        }

        @Override
        public CompressionCodec createCodec(CompressionUtil.CodecType type) {
            switch (type) {
                case NO_COMPRESSION:
                    return NoCompressionCodec.INSTANCE;
                case LZ4_FRAME:
                    return new Lz4FrameCodec(allocator);
                default:
                    throw new IllegalArgumentException("Sluice reads LZ4_FRAME and uncompressed Arrow streams, not " + type);
            }
        }

        @Override
        public CompressionCodec createCodec(CompressionUtil.CodecType type, int level) {
            return createCodec(type);
        }
    }
}
