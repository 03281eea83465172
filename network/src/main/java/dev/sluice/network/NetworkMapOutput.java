package dev.sluice.network;

import dev.sluice.core.memory.ArrowHostAllocator;
import dev.sluice.spi.Payload;
import dev.sluice.spi.StreamFormat;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import org.apache.arrow.memory.BufferAllocator;

/**
 * One map output going over a {@link NetworkSender}'s connection: each partition's stream opens with its first
 * batch (the stream header goes first), batches of all partitions interleave in the order they are written, and
 * {@link #commit} ends every open stream in increasing partition order, ends the map output and waits for the
 * receiver's acknowledgement. Each batch's payload is serialized straight into a pooled direct buffer, the one copy
 * of its bytes the sender makes ({@link #serializedBytes}). Not thread-safe: one map task writes it.
 */
public final class NetworkMapOutput implements AutoCloseable {
    private final NetworkSender sender;
    private final StreamFormat format;
    private final boolean[] opened;
    private long messages;
    private long wireBytes;
    private long serializedBytes;
    private long batches;
    private long rows;
    private boolean done;

    NetworkMapOutput(NetworkSender sender, StreamFormat format, int partitions) throws IOException {
        this.sender = sender;
        this.format = format;
        this.opened = new boolean[partitions];
        ByteBuf count = sender.buffers().directBuffer(4, 4).writeInt(partitions);
        frame(Frame.Kind.MAP_OUTPUT_OPEN, Frame.NO_PARTITION, 0, count);
    }

    /** Sends {@code payload}'s bytes as the next record batch of {@code partition}. */
    public void write(int partition, Payload payload, BufferAllocator scratch) throws IOException {
        if (done) {
            throw new IllegalStateException("the map output is already committed or aborted");
        }
        if (partition < 0 || partition >= opened.length) {
            throw new IllegalArgumentException("partition " + partition + " of a map output of " + opened.length);
        }
        if (!opened[partition]) {
            opened[partition] = true;
            frame(Frame.Kind.STREAM_OPEN, partition, 0, bytes(format.streamHeader()));
        }
        // A pooled direct buffer of exactly the record's size, so that its bytes go to the socket without a copy.
        ByteBuf body = payload.writeSized(n -> sender.buffers().directBuffer(n, n), b -> b.nioBuffer(0, b.capacity()),
                ByteBuf::release, ArrowHostAllocator.of(scratch));
        body.writerIndex(body.capacity());
        serializedBytes += body.readableBytes();
        batches++;
        rows += payload.rows();
        frame(Frame.Kind.BATCH, partition, Math.toIntExact(payload.rows()), body);
    }

    /** Ends every open stream and the map output, and waits until the receiver has all of it. */
    public void commit() throws IOException {
        if (done) {
            throw new IllegalStateException("the map output is already committed or aborted");
        }
        done = true;
        try {
            for (int p = 0; p < opened.length; p++) {
                if (opened[p]) {
                    frame(Frame.Kind.STREAM_END, p, 0, bytes(format.endOfStream()));
                }
            }
            frame(Frame.Kind.MAP_OUTPUT_END, Frame.NO_PARTITION, 0, null);
            sender.awaitAck();
        } finally {
            sender.closed(this);
        }
    }

    /**
     * Gives the map output up. Nothing tells a receiver to drop what it has (the wire format has no abort, as a
     * Flight stream has none but its end): the caller closes the sender, and the receiver sees the connection end
     * in the middle of the map output.
     */
    @Override
    public void close() {
        done = true;
        sender.closed(this);
    }

    private ByteBuf bytes(byte[] bytes) {
        return sender.buffers().directBuffer(bytes.length, bytes.length).writeBytes(bytes);
    }

    private void frame(Frame.Kind kind, int partition, int batchRows, ByteBuf payload) throws IOException {
        int payloadBytes = payload == null ? 0 : payload.readableBytes();
        ByteBuf header;
        try {
            header = Frame.header(sender.buffers(), kind, partition, batchRows, payloadBytes);
        } catch (RuntimeException | Error e) {
            if (payload != null) {
                payload.release();
            }
            throw e;
        }
        messages++;
        wireBytes += Frame.HEADER_BYTES + payloadBytes;
        sender.write(header, payload);
    }

    /** Frames sent, the map output's own included. */
    public long messages() {
        return messages;
    }

    /** Bytes sent, frame headers included. */
    public long wireBytes() {
        return wireBytes;
    }

    /** Bytes of record batch messages serialized into the send buffers: what the sender copied. */
    public long serializedBytes() {
        return serializedBytes;
    }

    public long batches() {
        return batches;
    }

    public long rows() {
        return rows;
    }
}
