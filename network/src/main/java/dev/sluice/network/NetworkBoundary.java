package dev.sluice.network;

import dev.sluice.core.serde.ArrowIpcFormat;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.verify.VerificationResult;
import dev.sluice.core.verify.Verifier;
import java.io.IOException;
import java.time.Duration;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The experiment's fixture: a receiver and a sender connected over loopback, one map task's prepared input and one
 * mode. {@link #send} sends the whole input as one map output and returns when the receiver has all of it;
 * {@link #receive} takes what arrived, which {@link #verify} reads back as the file verifier reads a data file. Owns
 * the connection and the receiver, not the input.
 */
public final class NetworkBoundary implements AutoCloseable {
    private final BoundaryInput input;
    private final BoundaryMode mode;
    private final BoundaryShape shape;
    private final ArrowIpcFormat format;
    private final BufferAllocator allocator;
    private final NetworkReceiver receiver;
    private final NetworkSender sender;

    private NetworkBoundary(BoundaryInput input, BoundaryMode mode, BoundaryShape shape, ArrowIpcFormat format,
                            BufferAllocator allocator, NetworkReceiver receiver, NetworkSender sender) {
        this.input = input;
        this.mode = mode;
        this.shape = shape;
        this.format = format;
        this.allocator = allocator;
        this.receiver = receiver;
        this.sender = sender;
    }

    public static NetworkBoundary open(BoundaryInput input, BoundaryMode mode, BoundaryShape shape, ShuffleCodec codec,
                                       NetworkTransport transport, BufferAllocator allocator) throws IOException {
        NetworkReceiver receiver = NetworkReceiver.start(transport);
        try {
            NetworkSender sender = NetworkSender.connect(transport, receiver.address());
            return new NetworkBoundary(input, mode, shape, new ArrowIpcFormat(input.schema, codec), allocator,
                    receiver, sender);
        } catch (IOException | RuntimeException e) {
            receiver.close();
            throw e;
        }
    }

    /** What one map output's sending did. */
    public static final class Sent {
        public final long messages;
        public final long wireBytes;
        public final long serializedBytes;
        public final long coalescedBytes;
        public final long batches;
        public final long rows;
        /** Time the sending thread waited on the connection (writability, the ACK). */
        public final long waitedNanos;

        Sent(NetworkMapOutput out, BoundaryMode.SendCounters counters, long waitedNanos) {
            this.waitedNanos = waitedNanos;
            this.messages = out.messages();
            this.wireBytes = out.wireBytes();
            this.serializedBytes = out.serializedBytes();
            this.coalescedBytes = counters.coalescedBytes;
            this.batches = out.batches();
            this.rows = out.rows();
        }

        /** Bytes the sender copied: into coalesced batches, and serializing into send buffers. */
        public long bytesCopied() {
            return coalescedBytes + serializedBytes;
        }
    }

    /** Sends the input as one map output, in the mode; returns once the receiver acknowledged all of it. */
    public Sent send() throws IOException {
        return send(sender, input, mode, shape, format, allocator);
    }

    /** Sends {@code input} as one map output over {@code sender}, in {@code mode}, and waits for the receiver's ACK. */
    public static Sent send(NetworkSender sender, BoundaryInput input, BoundaryMode mode, BoundaryShape shape,
                            ArrowIpcFormat format, BufferAllocator allocator) throws IOException {
        BoundaryMode.SendCounters counters = new BoundaryMode.SendCounters();
        long waited = sender.waitedNanos();
        try (NetworkMapOutput out = sender.open(format, shape.partitions)) {
            mode.send(input.slices, format, out, shape, allocator, counters);
            out.commit();
            return new Sent(out, counters, sender.waitedNanos() - waited);
        }
    }

    /** The next map output the receiver completed; the caller closes it. */
    public ReceivedMapOutput receive(Duration timeout) throws IOException {
        return receiver.take(timeout);
    }

    /** Reads every partition of {@code received} back and compares it with what the input says it must hold. */
    public VerificationResult verify(ReceivedMapOutput received) throws IOException {
        return Verifier.verify(received, input.expected, input.schema, format.codec(), allocator);
    }

    public ArrowIpcFormat format() {
        return format;
    }

    @Override
    public void close() {
        try {
            sender.close();
        } finally {
            receiver.close();
        }
    }
}
