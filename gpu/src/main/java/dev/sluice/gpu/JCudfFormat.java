package dev.sluice.gpu;

import dev.sluice.core.InvalidParameterException;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.serde.StreamFormat;
import java.util.List;

/**
 * The partition streams of the GPU path: JCudfSerialization tables one after the other, each compressed on its own,
 * with no stream header and no end marker, as spark-rapids' {@code GpuColumnarBatchSerializer} leaves them (a reader
 * reads tables until the stream ends).
 */
public final class JCudfFormat implements StreamFormat {
    private static final byte[] NOTHING = new byte[0];
    private final ShuffleCodec codec;

    /**
     * The codecs a JCudfSerialization stream can be written in: those that compress the piece a record is written
     * into, as Spark's codec wraps each record's stream in spark-rapids' threaded writer.
     */
    public static final List<ShuffleCodec> CODECS = List.of(ShuffleCodec.NONE, ShuffleCodec.LZ4_BLOCK,
            ShuffleCodec.ZSTD);

    /**
     * @throws InvalidParameterException for {@code lz4-frame}, which is Arrow IPC's body compression: a JCudf table
     *     has no Arrow body to compress, and the records would go out uncompressed under a compressed name
     */
    public JCudfFormat(ShuffleCodec codec) {
        if (!CODECS.contains(codec)) {
            throw new InvalidParameterException("codec", codec.label(), "none, lz4-block or zstd for "
                    + "JCudfSerialization records (" + codec.label() + " is Arrow IPC body compression, which they do "
                    + "not have)");
        }
        this.codec = codec;
    }

    @Override
    public byte[] streamHeader() {
        return NOTHING;
    }

    @Override
    public byte[] endOfStream() {
        return NOTHING;
    }

    @Override
    public ShuffleCodec codec() {
        return codec;
    }
}
