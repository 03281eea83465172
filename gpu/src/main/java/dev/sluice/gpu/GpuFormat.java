package dev.sluice.gpu;

import ai.rapids.cudf.HostColumnVector;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.spi.InvalidParameterException;
import dev.sluice.spi.Payload;
import dev.sluice.spi.StreamFormat;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The partition streams of the GPU path: one serialized table per record, one after the other, each compressed on its
 * own, with no stream header and no end marker, as spark-rapids' {@code GpuColumnarBatchSerializer} leaves them (a
 * reader reads tables until the stream ends). Which serializer makes the tables is the subclass, {@link KudoFormat}
 * (spark-rapids' default) or {@link JCudfFormat} (the legacy one); {@link GpuSerializer} picks it, and nothing else
 * branches on it: a record's bytes come from {@link #payload}, and {@link GpuVerifier} reads them back through
 * {@link #readTables}.
 */
public abstract class GpuFormat implements StreamFormat {
    /**
     * The codecs a GPU path's stream can be written in: those that compress the piece a record is written into, as
     * Spark's codec wraps each record's stream in spark-rapids' threaded writer.
     */
    public static final List<ShuffleCodec> CODECS = List.of(ShuffleCodec.NONE, ShuffleCodec.LZ4_BLOCK,
            ShuffleCodec.ZSTD);

    private static final byte[] NOTHING = new byte[0];
    private final ShuffleCodec codec;

    /**
     * @throws InvalidParameterException for {@code lz4-frame}, which is Arrow IPC's body compression: a cuDF table
     *     has no Arrow body to compress, and the records would go out uncompressed under a compressed name
     */
    GpuFormat(ShuffleCodec codec, GpuSerializer serializer) {
        if (!CODECS.contains(codec)) {
            throw new InvalidParameterException("codec", codec.label(), "none, lz4-block or zstd for "
                    + serializer.description() + " records (" + codec.label() + " is Arrow IPC body compression, "
                    + "which they do not have)");
        }
        this.codec = codec;
    }

    /** The serializer that makes this format's tables. */
    public abstract GpuSerializer serializer();

    /**
     * The record of rows {@code [rowOffset, rowOffset + rows)} of {@code columns} (one partition's slice of a batch's
     * host copy), compressed by this format's codec. The columns stay the caller's.
     */
    abstract Payload payload(HostColumnVector[] columns, int rowOffset, int rows);

    /**
     * Reads one partition's stream, its codec's framing already undone, as a reducer of spark-rapids does, and adds
     * its rows to partition {@code partition} of {@code into}; returns how many tables it held. Bytes that are not
     * this format's, or that end early, throw {@link java.io.EOFException}, {@link IllegalStateException} or
     * {@link IllegalArgumentException}, which {@link GpuVerifier} reports as a mismatch.
     */
    abstract long readTables(InputStream plain, int partition, RowMultisets into, Schema schema,
                             BufferAllocator allocator) throws IOException;

    @Override
    public final byte[] streamHeader() {
        return NOTHING;
    }

    @Override
    public final byte[] endOfStream() {
        return NOTHING;
    }

    /** The codec its payloads compress with: for readers and reports. */
    public final ShuffleCodec codec() {
        return codec;
    }
}
