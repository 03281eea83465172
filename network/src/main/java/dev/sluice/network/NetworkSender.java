package dev.sluice.network;

import dev.sluice.spi.StreamFormat;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The map side of the network boundary: one connection to a receiver, over which map outputs go one after another
 * ({@link #open}). Frames are written from the map task's thread and flushed once {@code flushBytes} are pending (a
 * gRPC or HTTP/2 sender batches messages the same way, so that small messages do not cost a system call each); the
 * map task waits while Netty's outbound buffer is above its high water mark, at most {@code timeout}. Any failure of
 * the connection (closed by the receiver, reset) is thrown by the next call, with its cause. One event loop thread,
 * {@code sluice-net-sender-*}; {@link #close} closes the connection, in the middle of a map output if one is open.
 */
public final class NetworkSender implements AutoCloseable {
    /** When pending frames are flushed: the default and the smallest allowed. */
    public static final int DEFAULT_FLUSH_BYTES = 256 * 1024;
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
    private static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(2 << 20, 8 << 20);

    private final EventLoop eventLoop;
    private final Channel channel;
    private final int flushBytes;
    private final Duration timeout;
    private final Replies replies;
    /** Records a write that failed (the connection closed under it) as the connection's failure. */
    private final ChannelFutureListener failures;
    private NetworkMapOutput open;
    private long pendingBytes;
    /** Time the map task's thread spent waiting on the connection: for writability and for ACKs. */
    private long waitedNanos;

    private NetworkSender(EventLoop eventLoop, Channel channel, Replies replies, int flushBytes, Duration timeout) {
        this.eventLoop = eventLoop;
        this.channel = channel;
        this.replies = replies;
        this.failures = future -> {
            if (!future.isSuccess()) {
                replies.failed(new IOException("writing to the receiver failed: " + future.cause(), future.cause()));
            }
        };
        this.flushBytes = flushBytes;
        this.timeout = timeout;
    }

    public static NetworkSender connect(NetworkTransport transport, InetSocketAddress receiver) throws IOException {
        return connect(transport, receiver, DEFAULT_FLUSH_BYTES, DEFAULT_TIMEOUT);
    }

    public static NetworkSender connect(NetworkTransport transport, InetSocketAddress receiver, int flushBytes,
                                        Duration timeout) throws IOException {
        if (flushBytes < 1) {
            throw new dev.sluice.spi.InvalidParameterException("flushBytes", flushBytes, "an integer >= 1");
        }
        EventLoop eventLoop = transport.eventLoop("sluice-net-sender");
        Replies replies = new Replies();
        try {
            ChannelFuture connected = new Bootstrap()
                    .group(eventLoop.group)
                    .channel(transport.channel())
                    .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                    .option(ChannelOption.TCP_NODELAY, true)
                    .option(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()))
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(new LengthFieldBasedFrameDecoder(1024, 0, 4, 0, 4),
                                    replies);
                        }
                    })
                    .connect(receiver);
            if (!connected.awaitUninterruptibly(timeout.toMillis()) || !connected.isSuccess()) {
                Throwable cause = connected.cause();
                connected.channel().close();
                throw new IOException("could not connect to the receiver at " + receiver
                        + (cause == null ? " within " + timeout.toMillis() + " ms" : ": " + cause), cause);
            }
            return new NetworkSender(eventLoop, connected.channel(), replies, flushBytes, timeout);
        } catch (IOException | RuntimeException e) {
            eventLoop.stop(timeout);
            throw e;
        }
    }

    /** Buffers for frames: the connection's pooled direct allocator. */
    ByteBufAllocator buffers() {
        return channel.alloc();
    }

    /**
     * Begins a map output of {@code partitions} partitions whose streams are in {@code format}. One at a time: the
     * previous one must be committed or aborted.
     */
    public NetworkMapOutput open(StreamFormat format, int partitions) throws IOException {
        if (open != null) {
            throw new IllegalStateException("a map output is open on this connection; commit or abort it first");
        }
        if (partitions < 1) {
            throw new dev.sluice.spi.InvalidParameterException("partitions", partitions, "an integer >= 1");
        }
        open = new NetworkMapOutput(this, format, partitions);
        return open;
    }

    void closed(NetworkMapOutput output) {
        if (open == output) {
            open = null;
        }
    }

    /** Writes one frame: {@code header} and {@code payload} (may be null), both released whatever happens. */
    void write(ByteBuf header, ByteBuf payload) throws IOException {
        ByteBuf frame = payload == null ? header : buffers().compositeDirectBuffer(2).addComponents(true, header, payload);
        try {
            throwIfFailed();
        } catch (IOException e) {
            frame.release();
            throw e;
        }
        pendingBytes += frame.readableBytes();
        channel.write(frame).addListener(failures);
        if (pendingBytes >= flushBytes) {
            flush();
        }
        if (!channel.isWritable()) {
            awaitWritable();
        }
    }

    /**
     * Nanoseconds the sending thread has waited on the connection so far: while Netty's outbound buffer was above its
     * high water mark (the link, or the receiver, not taking bytes as fast as they are made) and for ACKs. On a slow
     * link this is where the time goes; on loopback it is near zero.
     */
    public long waitedNanos() {
        return waitedNanos;
    }

    void flush() {
        pendingBytes = 0;
        channel.flush();
    }


    private void awaitWritable() throws IOException {
        long start = System.nanoTime();
        try {
            awaitWritableUntimed();
        } finally {
            waitedNanos += System.nanoTime() - start;
        }
    }

    private void awaitWritableUntimed() throws IOException {
        flush();
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (replies) {
            while (!channel.isWritable() && replies.failure == null) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new IOException("the receiver took no bytes for " + timeout.toMillis() + " ms ("
                            + channel.unsafe().outboundBuffer().totalPendingWriteBytes() + " bytes pending)");
                }
                waitOn(left);
            }
        }
        throwIfFailed();
    }

    /** Waits for the receiver's ACK of the map output just ended, at most the timeout. */
    void awaitAck() throws IOException {
        long start = System.nanoTime();
        try {
            awaitAckUntimed();
        } finally {
            waitedNanos += System.nanoTime() - start;
        }
    }

    private void awaitAckUntimed() throws IOException {
        flush();
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (replies) {
            while (replies.acks == 0 && replies.failure == null) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new IOException("the receiver did not acknowledge the map output within "
                            + timeout.toMillis() + " ms");
                }
                waitOn(left);
            }
            if (replies.acks > 0) {
                replies.acks--;
                return;
            }
        }
        throwIfFailed();
    }

    private void waitOn(long nanos) throws IOException {
        try {
            TimeUnit.NANOSECONDS.timedWait(replies, nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted waiting for the receiver", e);
        }
    }

    private void throwIfFailed() throws IOException {
        IOException f;
        synchronized (replies) {
            f = replies.failure;
        }
        if (f != null) {
            throw new IOException("sender: " + f.getMessage(), f);
        }
    }


    /**
     * Closes the connection and stops the event loop, within a bounded time. A map output still open is cut off:
     * the receiver sees the connection close in its middle.
     */
    @Override
    public void close() {
        open = null;
        replies.failed(new IOException("the sender's connection was closed by the sender"));
        try {
            channel.close().awaitUninterruptibly(timeout.toMillis());
        } finally {
            eventLoop.stop(timeout);
        }
    }

    /**
     * Replies from the receiver (ACKs), writability changes and the connection's end, on the event loop; the map
     * task's thread waits on this object for them.
     */
    private static final class Replies extends ChannelInboundHandlerAdapter {
        /** The first failure of the connection, or null. Guarded by this. */
        private IOException failure;
        /** ACK frames received and not yet consumed. Guarded by this. */
        private int acks;

        @Override
        public boolean isSharable() {
            return false;
        }

        synchronized void failed(IOException cause) {
            if (failure == null) {
                failure = cause;
            }
            notifyAll();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf frame = (ByteBuf) msg;
            try {
                Frame.Kind kind = Frame.Kind.of(frame.readInt());
                if (kind != Frame.Kind.ACK) {
                    throw new IllegalStateException("the receiver sent a " + kind + " frame");
                }
                synchronized (this) {
                    acks++;
                    notifyAll();
                }
            } finally {
                frame.release();
            }
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            synchronized (this) {
                notifyAll();
            }
            ctx.fireChannelWritabilityChanged();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            failed(new IOException("the connection to the receiver at " + ctx.channel().remoteAddress() + " closed"));
            ctx.fireChannelInactive();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            failed(new IOException("the connection to the receiver failed: " + cause, cause));
            ctx.close();
        }
    }
}
