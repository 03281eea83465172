package dev.sluice.jmh.link;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * Copies bytes between a TCP socket's streams and a Unix socket channel, one daemon thread per direction, until either
 * side ends; then closes both. The channel is read and written with its own calls, never through
 * {@code Channels.newInputStream/newOutputStream}: those hold the channel's blocking lock while they block, so a
 * read waiting for the host would stop the fork's writes. Only JMH's binary link between the host and a fork goes
 * through it (a few KB per iteration); its failures end the fork, which JMH reports.
 */
final class Relay {
    private Relay() {}

    static void pipe(String name, InputStream socketIn, OutputStream socketOut, SocketChannel channel,
                     AutoCloseable socket) {
        Runnable closeAll = () -> {
            for (AutoCloseable c : new AutoCloseable[] {socket, channel}) {
                try {
                    c.close();
                } catch (Exception e) {
                    // already closed by the other direction
                }
            }
        };
        start(name + "-to-channel", () -> {
            byte[] buffer = new byte[64 * 1024];
            for (int n; (n = socketIn.read(buffer)) >= 0; ) {
                ByteBuffer bytes = ByteBuffer.wrap(buffer, 0, n);
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
            }
        }, closeAll);
        start(name + "-from-channel", () -> {
            ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
            while (channel.read(buffer) >= 0) {
                socketOut.write(buffer.array(), 0, buffer.position());
                socketOut.flush();
                buffer.clear();
            }
        }, closeAll);
    }

    private interface Copy {
        void run() throws IOException;
    }

    private static void start(String name, Copy copy, Runnable closeAll) {
        Thread t = new Thread(() -> {
            try {
                copy.run();
            } catch (IOException e) {
                // the connection ended: the fork or the host is done with it
            } finally {
                closeAll.run();
            }
        }, name);
        t.setDaemon(true);
        t.start();
    }
}
