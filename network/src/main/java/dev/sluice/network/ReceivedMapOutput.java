package dev.sluice.network;

import dev.sluice.spi.PartitionReader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;

/**
 * One map output as the receiver reassembled it: each partition's stream bytes, held as the received frames' own
 * buffers (no copy), read by the same verifier and readers as a data file. Owns those buffers until closed.
 */
public final class ReceivedMapOutput implements PartitionReader {
    private final CompositeByteBuf[] streams;
    private final boolean[] ended;
    private final long[] batches;
    private final long[] rows;
    private long frames;
    private long wireBytes;
    private boolean closed;

    ReceivedMapOutput(int numPartitions) {
        streams = new CompositeByteBuf[numPartitions];
        ended = new boolean[numPartitions];
        batches = new long[numPartitions];
        rows = new long[numPartitions];
    }

    /** Takes {@code payload} (its reference) as the next bytes of its partition's stream, after checking the protocol. */
    void append(Frame.Kind kind, int partition, int batchRows, ByteBuf payload, ByteBufAllocator buffers) {
        try {
            if (partition < 0 || partition >= streams.length) {
                throw new IllegalStateException(kind + " frame for partition " + partition + " of a map output of "
                        + streams.length + " partitions");
            }
            boolean open = streams[partition] != null && !ended[partition];
            if (kind == Frame.Kind.STREAM_OPEN) {
                if (streams[partition] != null) {
                    throw new IllegalStateException("partition " + partition + "'s stream opened twice");
                }
                streams[partition] = buffers.compositeDirectBuffer(Integer.MAX_VALUE);
            } else if (!open) {
                throw new IllegalStateException(kind + " frame for partition " + partition + ", whose stream is "
                        + (streams[partition] == null ? "not open" : "already ended"));
            }
            if (kind == Frame.Kind.BATCH) {
                batches[partition]++;
                rows[partition] += batchRows;
            } else if (kind == Frame.Kind.STREAM_END) {
                ended[partition] = true;
            }
            streams[partition].addComponent(true, payload);
            payload = null;
        } finally {
            if (payload != null) {
                payload.release();
            }
        }
    }

    void frame(int bytesOnWire) {
        frames++;
        wireBytes += bytesOnWire;
    }

    /** Partitions whose stream opened and did not end; empty when the output is complete. */
    String unended() {
        StringBuilder open = new StringBuilder();
        for (int p = 0; p < streams.length; p++) {
            if (streams[p] != null && !ended[p]) {
                open.append(open.length() == 0 ? "" : ", ").append(p);
            }
        }
        return open.toString();
    }

    @Override
    public int numPartitions() {
        return streams.length;
    }

    @Override
    public long length(int partition) {
        return streams[partition] == null ? 0 : streams[partition].readableBytes();
    }

    @Override
    public ReadableByteChannel open(int partition) throws IOException {
        if (closed) {
            throw new IOException("the received map output is closed");
        }
        ByteBuf stream = streams[partition];
        return Channels.newChannel(new ByteBufInputStream(stream == null ? Unpooled.EMPTY_BUFFER
                : stream.duplicate()));
    }

    /** Frames received, the map output's own frames included. */
    public long frames() {
        return frames;
    }

    /** Bytes received on the wire, frame headers included. */
    public long wireBytes() {
        return wireBytes;
    }

    /** Record batch messages received, over all partitions. */
    public long batches() {
        return java.util.Arrays.stream(batches).sum();
    }

    /** Rows of those batches, as their frames declared them (the verifier counts the rows it decodes). */
    public long rows() {
        return java.util.Arrays.stream(rows).sum();
    }

    public long batches(int partition) {
        return batches[partition];
    }

    public long rows(int partition) {
        return rows[partition];
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (int p = 0; p < streams.length; p++) {
            if (streams[p] != null) {
                streams[p].release();
                streams[p] = null;
            }
        }
    }
}
