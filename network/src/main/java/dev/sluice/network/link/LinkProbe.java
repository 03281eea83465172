package dev.sluice.network.link;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The raw throughput of the loopback this process sees: one TCP connection on 127.0.0.1, {@code bytes} written in
 * 1 MiB writes and read to the end, timed from the first write until the reader has the last byte. Through an
 * emulated link that is the {@code tbf} rate as TCP achieves it (the first bucket's worth goes at once, so the
 * transfer should be many buckets long); on native loopback it is the machine's copy speed. Every result records it.
 */
public final class LinkProbe {
    private LinkProbe() {}

    /** What one probe measured. */
    public static final class Measured {
        public final long bytes;
        public final long nanos;

        Measured(long bytes, long nanos) {
            this.bytes = bytes;
            this.nanos = nanos;
        }

        public double bitsPerSecond() {
            return bytes * 8e9 / nanos;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%.1f Mbit/s (%d bytes in %.3f s)", bitsPerSecond() / 1e6, bytes,
                    nanos / 1e9);
        }
    }

    /** Bytes for a probe of about {@code seconds} at {@code spec}'s rate (256 MiB for native), at least 16 MiB. */
    public static long bytesFor(LinkSpec spec, double seconds) {
        if (spec.isNative()) {
            return 256L << 20;
        }
        return Math.max(16L << 20, (long) (spec.rateBits() / 8.0 * seconds));
    }

    /** Sends {@code bytes} over 127.0.0.1 and returns the throughput; fails after {@code timeout}. */
    public static Measured measure(long bytes, Duration timeout) throws IOException {
        ExecutorService reader = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "sluice-link-probe");
            t.setDaemon(true);
            return t;
        });
        try (ServerSocket server = new ServerSocket()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            server.setSoTimeout((int) timeout.toMillis());
            Future<Long> received = reader.submit(() -> {
                try (Socket s = server.accept(); InputStream in = s.getInputStream()) {
                    s.setSoTimeout((int) timeout.toMillis());
                    byte[] buffer = new byte[1 << 20];
                    long total = 0;
                    for (int n; (n = in.read(buffer)) >= 0; ) {
                        total += n;
                    }
                    long at = System.nanoTime();
                    return total == bytes ? at : -1L;
                }
            });
            long start;
            try (Socket s = new Socket()) {
                s.connect(server.getLocalSocketAddress(), (int) timeout.toMillis());
                s.setSoTimeout((int) timeout.toMillis());
                byte[] chunk = new byte[1 << 20];
                start = System.nanoTime();
                OutputStream out = s.getOutputStream();
                long deadline = start + timeout.toNanos();
                for (long left = bytes; left > 0; left -= chunk.length) {
                    out.write(chunk, 0, (int) Math.min(chunk.length, left));
                    if (System.nanoTime() > deadline) {
                        throw new IOException("the link probe sent " + (bytes - left) + " of " + bytes + " bytes in "
                                + timeout.toMillis() + " ms");
                    }
                }
            }
            long end;
            try {
                end = received.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                received.cancel(true);
                throw new IOException("the link probe's reader did not finish within " + timeout.toMillis() + " ms");
            } catch (ExecutionException e) {
                throw new IOException("the link probe's reader failed: " + e.getCause(), e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted probing the link", e);
            }
            if (end < 0) {
                throw new IOException("the link probe's reader did not receive all " + bytes + " bytes");
            }
            return new Measured(bytes, end - start);
        } finally {
            reader.shutdownNow();
            try {
                if (!reader.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new IOException("the link probe's reader did not stop");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
