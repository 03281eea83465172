package dev.sluice.core.serde;

import dev.sluice.spi.StreamFormat;

/**
 * The stream format of {@link BytesPayload}s: a partition is a header, the records' bytes and an end marker, each
 * given here as plain bytes and framed by the codec.
 */
public final class BytesFormat implements StreamFormat {
    private final ShuffleCodec codec;
    private final byte[] header;
    private final byte[] endOfStream;

    public BytesFormat(ShuffleCodec codec, byte[] header, byte[] endOfStream) {
        this.codec = codec;
        this.header = Counting.framed(codec, header);
        this.endOfStream = Counting.framed(codec, endOfStream);
    }

    @Override
    public byte[] streamHeader() {
        return header;
    }

    @Override
    public byte[] endOfStream() {
        return endOfStream;
    }

    /** The codec its payloads compress with: for readers and reports. */
    public ShuffleCodec codec() {
        return codec;
    }

    /** A payload of {@code bytes} (not copied) in this format. */
    public BytesPayload payload(byte[] bytes, long rows) {
        return new BytesPayload(java.nio.ByteBuffer.wrap(bytes), rows, codec);
    }
}
