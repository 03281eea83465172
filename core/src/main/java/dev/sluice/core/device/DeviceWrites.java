package dev.sluice.core.device;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * Writers as a map task's are to a device: {@code writers} threads, each writing one file of {@code bytes} in 1 MiB
 * calls through the page cache, started together, optionally paced (no call before its first byte's time at
 * {@code paceBytesPerSecond} from the start, as bytes arrive at a compressing task's pace), and timed to each one's last
 * write returning: no fsync, since a map task's time ends with its last write, whatever the device still holds. The
 * files are removed before {@link #write} returns, on success, failure or interrupt. What the fluid model of a device
 * ({@link FluidDisk}) is checked against ({@code scripts/sluice device check}).
 */
public final class DeviceWrites {
    /** The size of one write call: as the raw write's. */
    static final int CALL_BYTES = 1 << 20;
    /** How long the writers may take in all before the check gives up on them. */
    static final long TIMEOUT_SECONDS = 900;

    /** When each writer's last write returned, from the common start, and the last of them. */
    public record Timing(double[] writerSeconds) {
        public double seconds() {
            double last = 0;
            for (double s : writerSeconds) {
                last = Math.max(last, s);
            }
            return last;
        }
    }

    private DeviceWrites() {}

    /**
     * Writes {@code writers} files named {@code prefix-N} in {@code dir}, {@code bytes} each, paced at
     * {@code paceBytesPerSecond} per writer (0 for as fast as they can), and removes them.
     */
    public static Timing write(Path dir, String prefix, int writers, long bytes, double paceBytesPerSecond)
            throws IOException, InterruptedException {
        if (writers < 1) {
            throw new IllegalArgumentException("writers: " + writers + " (at least 1)");
        }
        if (bytes < 1) {
            throw new IllegalArgumentException("bytes: " + bytes + " (at least 1)");
        }
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
            files.add(dir.resolve(prefix + "-" + i));
        }
        ExecutorService pool = Executors.newFixedThreadPool(writers, r -> {
            Thread t = new Thread(r, "sluice-device-writer");
            t.setDaemon(true);
            return t;
        });
        CountDownLatch ready = new CountDownLatch(writers);
        CountDownLatch go = new CountDownLatch(1);
        long[] start = new long[1];
        List<Future<Double>> done = new ArrayList<>();
        try {
            for (Path file : files) {
                done.add(pool.submit(() -> writeOne(file, bytes, paceBytesPerSecond, ready, go, start)));
            }
            if (!ready.await(60, TimeUnit.SECONDS)) {
                throw new IOException("the writers were not ready within 60 s");
            }
            start[0] = System.nanoTime();
            go.countDown();
            double[] seconds = new double[writers];
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
            for (int i = 0; i < writers; i++) {
                try {
                    seconds[i] = done.get(i).get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (ExecutionException e) {
                    Throwable cause = e.getCause();
                    if (cause instanceof IOException io) {
                        throw new IOException("writing " + files.get(i) + ": " + io.getMessage(), io);
                    }
                    throw new IOException("writing " + files.get(i) + ": " + cause, cause);
                } catch (TimeoutException e) {
                    throw new IOException("the writers did not finish within " + TIMEOUT_SECONDS + " s");
                }
            }
            return new Timing(seconds);
        } finally {
            go.countDown(); // writers still waiting (a failure before the start) leave at once
            pool.shutdownNow();
            boolean stopped = pool.awaitTermination(60, TimeUnit.SECONDS);
            IOException notRemoved = null;
            for (Path file : files) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException e) {
                    if (notRemoved == null) {
                        notRemoved = e;
                    } else {
                        notRemoved.addSuppressed(e);
                    }
                }
            }
            if (notRemoved != null) {
                throw notRemoved;
            }
            if (!stopped) {
                throw new IOException("the writers did not stop within 60 s of being interrupted");
            }
        }
    }

    private static double writeOne(Path file, long bytes, double pace, CountDownLatch ready, CountDownLatch go,
                                   long[] start) throws IOException, InterruptedException {
        ByteBuffer block = ByteBuffer.allocateDirect(CALL_BYTES);
        for (int i = 0; i + 8 <= block.capacity(); i += 8) {
            block.putLong(i, 0x9E3779B97F4A7C15L * (i + 1) ^ file.hashCode());
        }
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ready.countDown();
            go.await();
            long t0 = start[0];
            long written = 0;
            while (written < bytes) {
                if (pace > 0) {
                    long due = t0 + (long) (written / pace * 1e9);
                    for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                        LockSupport.parkNanos(wait);
                        if (Thread.interrupted()) {
                            throw new InterruptedException();
                        }
                    }
                }
                block.clear().limit((int) Math.min(CALL_BYTES, bytes - written));
                while (block.hasRemaining()) {
                    written += out.write(block);
                }
            }
            return (System.nanoTime() - t0) / 1e9;
        }
    }
}
