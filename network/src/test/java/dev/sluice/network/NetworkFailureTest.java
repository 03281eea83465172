package dev.sluice.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.serde.ArrowIpcFormat;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.testkit.Leaks;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A connection that fails in the middle of a map output is reported on both sides, leaks nothing and never hangs. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NetworkFailureTest {
    private static final BoundaryShape SHAPE = new BoundaryShape(7, 1000, 64);
    private static final Duration WAIT = Duration.ofSeconds(10);

    private BufferAllocator allocator;
    private BoundaryInput input;
    private ArrowIpcFormat format;
    private long inputMemory;

    @BeforeEach
    void prepare() {
        allocator = new RootAllocator();
        input = BoundaryInput.prepare(InputSpec.of(DataSize.TINY, 0.25), SHAPE, BoundaryMode.PER_SLICE, allocator);
        format = new ArrowIpcFormat(input.schema, ShuffleCodec.NONE);
        inputMemory = allocator.getAllocatedMemory();
    }

    @AfterEach
    void release() {
        assertEquals(inputMemory, allocator.getAllocatedMemory(), "Arrow memory left by the test");
        input.close();
        Leaks.assertNone(allocator, 0, "network failure");
        allocator.close();
    }

    /** Writes half the slices; returns the index of the first slice not written. */
    private int writeHalf(NetworkMapOutput out) throws IOException {
        int half = input.slices.size() / 2;
        for (int i = 0; i < half; i++) {
            out.write(input.slices.partitionOf(i), format.payload(input.slices.rowsOf(i)), allocator);
        }
        return half;
    }

    /** Waits until the receiver has begun the map output, so that cutting the connection cuts it in its middle. */
    private static void awaitInProgress(NetworkReceiver receiver) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (receiver.inProgress() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(1, receiver.inProgress(), "the map output's first frames never arrived");
    }

    @Test
    void theReceiverClosingMidStreamFailsTheSenderAndTheReceiverWithTheCause() throws Exception {
        try (NetworkReceiver receiver = NetworkReceiver.start(NetworkTransport.best());
             NetworkSender sender = NetworkSender.connect(NetworkTransport.best(), receiver.address(),
                     NetworkSender.DEFAULT_FLUSH_BYTES, Duration.ofSeconds(5))) {
            NetworkMapOutput out = sender.open(format, SHAPE.partitions);
            int next = writeHalf(out);
            sender.flush();
            awaitInProgress(receiver);
            receiver.dropConnections();
            IOException received = assertThrows(IOException.class, () -> receiver.take(WAIT));
            assertTrue(received.getMessage().contains("closed in the middle of map output 1"), received.getMessage());
            assertNotNull(received.getCause());
            IOException sent = assertThrows(IOException.class, () -> {
                for (int i = next; i < input.slices.size(); i++) {
                    out.write(input.slices.partitionOf(i), format.payload(input.slices.rowsOf(i)), allocator);
                }
                out.commit();
            });
            assertTrue(sent.getMessage().contains("the connection to the receiver")
                    || sent.getMessage().contains("writing to the receiver failed"), sent.getMessage());
            assertNotNull(sent.getCause());
        }
    }

    @Test
    void theSenderClosingMidStreamFailsTheReceiverAndLaterWritesOfTheSender() throws Exception {
        try (NetworkReceiver receiver = NetworkReceiver.start(NetworkTransport.best())) {
            NetworkMapOutput out;
            try (NetworkSender sender = NetworkSender.connect(NetworkTransport.best(), receiver.address())) {
                out = sender.open(format, SHAPE.partitions);
                writeHalf(out);
                sender.flush();
                awaitInProgress(receiver);
            }
            IOException received = assertThrows(IOException.class, () -> receiver.take(WAIT));
            assertTrue(received.getMessage().contains("closed in the middle of map output 1")
                    && received.getMessage().contains("not ended"), received.getMessage());
            IOException sent = assertThrows(IOException.class,
                    () -> out.write(0, format.payload(input.slices.rowsOf(0)), allocator));
            assertTrue(sent.getMessage().contains("closed"), sent.getMessage());
        }
    }

    @Test
    void aReceiverThatNeverAcknowledgesFailsTheCommitAfterTheTimeout() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread drain = new Thread(() -> {
                try (Socket s = silent.accept(); InputStream in = s.getInputStream()) {
                    in.transferTo(OutputStream.nullOutputStream());
                } catch (IOException ignored) {
                    // the sender closed: the drain is over
                }
            }, "test-drain");
            drain.start();
            try (NetworkSender sender = NetworkSender.connect(NetworkTransport.best(),
                    (InetSocketAddress) silent.getLocalSocketAddress(), NetworkSender.DEFAULT_FLUSH_BYTES,
                    Duration.ofMillis(500))) {
                NetworkMapOutput out = sender.open(format, SHAPE.partitions);
                writeHalf(out);
                IOException e = assertThrows(IOException.class, out::commit);
                assertTrue(e.getMessage().contains("did not acknowledge the map output within 500 ms"), e.getMessage());
            }
            drain.join(WAIT.toMillis());
        }
    }

    @Test
    void aReceiverThatReadsNothingFailsTheWriteAfterTheTimeoutInsteadOfBufferingWithoutBound() throws Exception {
        try (ServerSocket stuck = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             NetworkSender sender = NetworkSender.connect(NetworkTransport.best(),
                     (InetSocketAddress) stuck.getLocalSocketAddress(), 64 * 1024, Duration.ofMillis(500))) {
            NetworkMapOutput out = sender.open(format, SHAPE.partitions);
            IOException e = assertThrows(IOException.class, () -> {
                for (int round = 0; round < 1000; round++) {
                    writeHalf(out);
                }
            });
            assertTrue(e.getMessage().contains("took no bytes for 500 ms"), e.getMessage());
        }
    }

    @Test
    void aFrameOfAnUnknownKindIsAProtocolFailureNamingIt() throws Exception {
        try (NetworkReceiver receiver = NetworkReceiver.start(NetworkTransport.best());
             Socket client = new Socket(InetAddress.getLoopbackAddress(), receiver.address().getPort())) {
            ByteBuffer frame = ByteBuffer.allocate(20).putInt(16).putInt(0).putInt(-1).putInt(0).putInt(3);
            frame.putInt(0, 16);
            ByteBuffer bad = ByteBuffer.allocate(16).putInt(12).putInt(99).putInt(0).putInt(0);
            client.getOutputStream().write(frame.array());
            client.getOutputStream().write(bad.array());
            client.getOutputStream().flush();
            IOException e = assertThrows(IOException.class, () -> receiver.take(WAIT));
            assertTrue(e.getMessage().contains("frame kind 99"), e.getMessage());
        }
    }
}
