package dev.sluice.jmh.link;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * Main class of a JMH fork that runs inside a link's network namespace ({@link NamespacedForks}). The host's JMH
 * listens on the machine's loopback, which a namespace cannot reach; a Unix socket (a file, which every namespace
 * sees) can. So this fork listens on its own namespace's 127.0.0.1, relays the one connection JMH's fork makes to the
 * Unix socket the host named in {@value NamespacedForks#SOCKET_ENV} (telling the host which port to connect to), and
 * then runs JMH's own {@code ForkedMain} (package-private, so through reflection) against that local port.
 */
public final class NamespacedFork {
    private NamespacedFork() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            throw new IllegalArgumentException("expected JMH's host and port, got " + args.length + " arguments");
        }
        String socket = System.getenv(NamespacedForks.SOCKET_ENV);
        if (socket == null) {
            throw new IllegalStateException(NamespacedForks.SOCKET_ENV + " is not set: this fork was not started by "
                    + "NamespacedForks");
        }
        int hostPort = Integer.parseInt(args[1]);
        ServerSocket local = new ServerSocket();
        local.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread acceptor = new Thread(() -> {
            try (local) {
                Socket jmh = local.accept();
                SocketChannel host = SocketChannel.open(StandardProtocolFamily.UNIX);
                host.connect(UnixDomainSocketAddress.of(socket));
                ByteBuffer header = ByteBuffer.allocate(4).putInt(hostPort).flip();
                while (header.hasRemaining()) {
                    host.write(header);
                }
                Relay.pipe("sluice-fork-link", jmh.getInputStream(), jmh.getOutputStream(), host, jmh);
            } catch (IOException e) {
                System.err.println("sluice: relaying JMH's link out of the namespace failed: " + e);
            }
        }, "sluice-fork-link-accept");
        acceptor.setDaemon(true);
        acceptor.start();
        Method forkedMain = Class.forName("org.openjdk.jmh.runner.ForkedMain").getMethod("main", String[].class);
        forkedMain.setAccessible(true);
        try {
            forkedMain.invoke(null, (Object) new String[] {"127.0.0.1", Integer.toString(local.getLocalPort())});
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
        }
    }
}
