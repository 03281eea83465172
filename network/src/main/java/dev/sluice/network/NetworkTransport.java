package dev.sluice.network;

import dev.sluice.spi.InvalidParameterException;
import io.netty.channel.Channel;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.util.Locale;

/** Netty's socket transports: Linux epoll (native writev, edge-triggered) or the JDK's NIO. */
public enum NetworkTransport {
    EPOLL {
        @Override
        IoHandlerFactory ioHandler() {
            return EpollIoHandler.newFactory();
        }

        @Override
        Class<? extends ServerChannel> serverChannel() {
            return EpollServerSocketChannel.class;
        }

        @Override
        Class<? extends Channel> channel() {
            return EpollSocketChannel.class;
        }
    },
    NIO {
        @Override
        IoHandlerFactory ioHandler() {
            return NioIoHandler.newFactory();
        }

        @Override
        Class<? extends ServerChannel> serverChannel() {
            return NioServerSocketChannel.class;
        }

        @Override
        Class<? extends Channel> channel() {
            return NioSocketChannel.class;
        }
    };

    public static final String AUTO = "auto";

    abstract IoHandlerFactory ioHandler();

    abstract Class<? extends ServerChannel> serverChannel();

    abstract Class<? extends Channel> channel();

    /** One event loop thread named {@code name}-N (a {@code sluice-} prefix, which the leak checks look for). */
    EventLoop eventLoop(String name) {
        return new EventLoop(name, ioHandler());
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Epoll where this platform has it, NIO otherwise. */
    public static NetworkTransport best() {
        return Epoll.isAvailable() ? EPOLL : NIO;
    }

    /** {@value #AUTO}, epoll or nio; epoll where it is unavailable is refused, with the reason. */
    public static NetworkTransport parse(String parameter, String value) {
        if (AUTO.equals(value)) {
            return best();
        }
        for (NetworkTransport t : values()) {
            if (t.label().equals(value)) {
                if (t == EPOLL && !Epoll.isAvailable()) {
                    throw new InvalidParameterException(parameter, value, "auto or nio here: epoll is unavailable ("
                            + Epoll.unavailabilityCause() + ")");
                }
                return t;
            }
        }
        throw new InvalidParameterException(parameter, value, "auto, epoll or nio");
    }
}
