package dev.sluice.network;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The reduce side of the network boundary, in-process: a Netty server on {@code 127.0.0.1} (an ephemeral port) that
 * takes map outputs in Sluice's {@link Frame wire format} on any number of connections, reassembles each partition's
 * stream from the frames' pooled direct buffers without copying them, and hands every complete map output to
 * {@link #take}. A connection that ends in the middle of a map output, or breaks the protocol, is handed over as a
 * failure naming the connection, the map output's state and the cause. One event loop thread,
 * {@code sluice-net-receiver-*}; {@link #close} stops it within a bounded time and releases what was received.
 */
public final class NetworkReceiver implements AutoCloseable {
    private static final Duration SHUTDOWN = Duration.ofSeconds(10);

    private final EventLoop eventLoop;
    private final Channel server;
    private final ChannelGroup connections;
    /** Complete map outputs and failures, in the order they happened; each taken once. */
    private final BlockingQueue<Object> arrived = new LinkedBlockingQueue<>();
    private volatile boolean closing;
    /** Map outputs begun and not yet complete or failed, over all connections. */
    private final java.util.concurrent.atomic.AtomicInteger inProgress = new java.util.concurrent.atomic.AtomicInteger();

    private NetworkReceiver(EventLoop eventLoop, Channel server, ChannelGroup connections) {
        this.eventLoop = eventLoop;
        this.server = server;
        this.connections = connections;
    }

    /** Listens on {@code 127.0.0.1}, on a port the system picks. */
    public static NetworkReceiver start(NetworkTransport transport) throws IOException {
        EventLoop eventLoop = transport.eventLoop("sluice-net-receiver");
        try {
            ChannelGroup connections = new DefaultChannelGroup(eventLoop.group.next());
            NetworkReceiver[] self = new NetworkReceiver[1];
            ServerBootstrap bootstrap = new ServerBootstrap()
                    .group(eventLoop.group)
                    .channel(transport.serverChannel())
                    .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                    .childOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            connections.add(ch);
                            ch.pipeline().addLast(new LengthFieldBasedFrameDecoder(Frame.MAX_FRAME_BYTES, 0, 4, 0, 4),
                                    self[0].new MapOutputs());
                        }
                    });
            Channel server = bootstrap.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                    .syncUninterruptibly().channel();
            self[0] = new NetworkReceiver(eventLoop, server, connections);
            return self[0];
        } catch (RuntimeException e) {
            eventLoop.stop(SHUTDOWN);
            throw new IOException("the receiver could not listen on 127.0.0.1: " + e.getMessage(), e);
        }
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) server.localAddress();
    }

    /**
     * The next complete map output, in arrival order; the caller closes it. Throws the failure of a connection that
     * broke before it, and times out after {@code timeout} with nothing arrived.
     */
    public ReceivedMapOutput take(Duration timeout) throws IOException {
        Object next;
        try {
            next = arrived.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted waiting for a map output", e);
        }
        if (next == null) {
            throw new IOException("no map output arrived within " + timeout.toMillis() + " ms");
        }
        if (next instanceof IOException) {
            IOException failure = (IOException) next;
            throw new IOException("receiver: " + failure.getMessage(), failure);
        }
        return (ReceivedMapOutput) next;
    }

    /** Map outputs whose first frame arrived and whose end or failure did not yet: for tests that cut one off. */
    int inProgress() {
        return inProgress.get();
    }

    /** Closes every accepted connection, as a reduce task that dies would: the senders see the connection close. */
    public void dropConnections() {
        connections.close().awaitUninterruptibly(SHUTDOWN.toMillis());
    }

    @Override
    public void close() {
        closing = true;
        try {
            server.close().awaitUninterruptibly(SHUTDOWN.toMillis());
            connections.close().awaitUninterruptibly(SHUTDOWN.toMillis());
        } finally {
            try {
                eventLoop.stop(SHUTDOWN);
            } finally {
                for (Object left; (left = arrived.poll()) != null; ) {
                    if (left instanceof ReceivedMapOutput) {
                        ((ReceivedMapOutput) left).close();
                    }
                }
            }
        }
    }

    /** One connection's map outputs, one at a time, on its event loop. */
    private final class MapOutputs extends ChannelInboundHandlerAdapter {
        private ReceivedMapOutput current;
        private long outputs;
        private long bytesThisConnection;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf frame = (ByteBuf) msg;
            try {
                int bytesOnWire = 4 + frame.readableBytes();
                bytesThisConnection += bytesOnWire;
                Frame.Kind kind = Frame.Kind.of(frame.readInt());
                int partition = frame.readInt();
                int rows = frame.readInt();
                if (kind == Frame.Kind.MAP_OUTPUT_OPEN) {
                    if (current != null) {
                        throw new IllegalStateException("a map output opened before the previous one ended");
                    }
                    int partitions = frame.readInt();
                    if (partitions < 1) {
                        throw new IllegalStateException("a map output of " + partitions + " partitions");
                    }
                    current = new ReceivedMapOutput(partitions);
                    inProgress.incrementAndGet();
                    current.frame(bytesOnWire);
                    return;
                }
                if (current == null) {
                    throw new IllegalStateException(kind + " frame outside a map output");
                }
                current.frame(bytesOnWire);
                if (kind == Frame.Kind.MAP_OUTPUT_END) {
                    String unended = current.unended();
                    if (!unended.isEmpty()) {
                        throw new IllegalStateException("the map output ended with partitions " + unended
                                + " not ended");
                    }
                    arrived.add(current);
                    current = null;
                    inProgress.decrementAndGet();
                    outputs++;
                    ctx.writeAndFlush(Frame.header(ctx.alloc(), Frame.Kind.ACK, Frame.NO_PARTITION, 0, 0));
                    return;
                }
                if (kind == Frame.Kind.ACK) {
                    throw new IllegalStateException("an ACK frame from a sender");
                }
                current.append(kind, partition, rows, frame.retainedSlice(), ctx.alloc());
            } finally {
                frame.release();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (current != null) {
                fail(new IOException("the connection from " + ctx.channel().remoteAddress() + " closed in the "
                        + "middle of map output " + (outputs + 1) + " after " + bytesThisConnection + " bytes"
                        + (current.unended().isEmpty() ? "" : ", partitions " + current.unended() + " not ended")
                        + (closing ? " (the receiver was closing)" : "")));
            }
            ctx.fireChannelInactive();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            fail(new IOException("the connection from " + ctx.channel().remoteAddress() + " failed in map "
                    + "output " + (outputs + 1) + " after " + bytesThisConnection + " bytes: " + cause, cause));
            ctx.close();
        }

        private void fail(IOException failure) {
            if (current != null) {
                current.close();
                current = null;
                inProgress.decrementAndGet();
            }
            arrived.add(failure);
        }
    }
}
