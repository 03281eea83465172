package dev.sluice.network;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * One Netty event loop thread and its stop: {@link #stop} shuts the loop down and joins its thread, so that nothing
 * of a closed sender or receiver is alive afterwards (Netty's termination future completes just before the thread
 * ends).
 */
final class EventLoop {
    final EventLoopGroup group;
    private final List<Thread> threads = new CopyOnWriteArrayList<>();

    EventLoop(String name, IoHandlerFactory ioHandler) {
        DefaultThreadFactory names = new DefaultThreadFactory(name, true);
        this.group = new MultiThreadIoEventLoopGroup(1, task -> {
            Thread t = names.newThread(task);
            threads.add(t);
            return t;
        }, ioHandler);
    }

    /** Stops the loop (no quiet period) and waits for its thread to end, at most {@code timeout}. */
    void stop(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        group.shutdownGracefully(0, timeout.toMillis(), TimeUnit.MILLISECONDS);
        try {
            for (Thread t : threads) {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                if (t.isAlive()) {
                    throw new IllegalStateException(t.getName() + " did not stop within " + timeout.toMillis() + " ms");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted stopping " + threads, e);
        }
    }
}
