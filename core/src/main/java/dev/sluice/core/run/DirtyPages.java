package dev.sluice.core.run;

import dev.sluice.core.measure.Meminfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAccumulator;

/**
 * The page cache's dirty data, from {@code /proc/meminfo} (Dirty + Writeback), and the gate that makes benchmark
 * iterations independent: before a measured wave, dirty data is flushed ({@code sync}) and the gate waits, for a
 * bounded time, until Dirty + Writeback are back near their idle level, so that no iteration inherits the previous
 * one's writeback. A sampler records the peak of Dirty while a wave runs.
 */
public final class DirtyPages {
    /** How often the gate and the sampler read {@code /proc/meminfo}. */
    static final long POLL_MILLIS = 20;

    private final Path meminfo;
    private final Flush flush;

    /** Flushes dirty data to the devices (the {@code sync} command on Linux). */
    public interface Flush {
        void flush() throws IOException, InterruptedException;
    }

    public DirtyPages(Path meminfo, Flush flush) {
        this.meminfo = meminfo;
        this.flush = flush;
    }

    /** This machine's {@code /proc/meminfo}, flushed with {@code sync}. */
    public static DirtyPages system() {
        return new DirtyPages(Meminfo.PROC, DirtyPages::sync);
    }

    private static void sync() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("sync").redirectErrorStream(true).start();
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IOException("sync did not finish in 10 minutes");
        }
        if (p.exitValue() != 0) {
            throw new IOException("sync failed with exit status " + p.exitValue());
        }
    }

    public boolean available() {
        return Files.isReadable(meminfo);
    }

    /** Dirty + Writeback, in bytes; -1 where /proc/meminfo cannot be read. */
    public long dirtyAndWriteback() {
        long[] values = read();
        return values == null ? -1 : values[0] + values[1];
    }

    /** Dirty alone, in bytes; -1 where it cannot be read. */
    public long dirty() {
        long[] values = read();
        return values == null ? -1 : values[0];
    }

    private long[] read() {
        return Meminfo.read(meminfo, "Dirty", "Writeback");
    }

    /** What the gate found and did before one iteration. */
    public static final class Settled {
        /** Dirty + Writeback before the flush. */
        public final long before;
        /** Dirty + Writeback when the gate let the iteration start. */
        public final long after;
        public final long waitedNanos;
        /** False if the bounded wait ran out before Dirty + Writeback came down. */
        public final boolean settled;

        Settled(long before, long after, long waitedNanos, boolean settled) {
            this.before = before;
            this.after = after;
            this.waitedNanos = waitedNanos;
            this.settled = settled;
        }
    }

    /**
     * Flushes, then waits until Dirty + Writeback are at most {@code idle + tolerance} bytes, or {@code maxWaitNanos}
     * passed.
     */
    public Settled settle(long idle, long tolerance, long maxWaitNanos) throws IOException, InterruptedException {
        long start = System.nanoTime();
        long before = dirtyAndWriteback();
        flush.flush();
        long now = dirtyAndWriteback();
        while (now > idle + tolerance && System.nanoTime() - start < maxWaitNanos) {
            Thread.sleep(POLL_MILLIS);
            now = dirtyAndWriteback();
        }
        return new Settled(before, now, System.nanoTime() - start, now <= idle + tolerance);
    }

    /** Samples Dirty every {@value #POLL_MILLIS} ms on its own thread until closed; {@link #peak} is the highest seen. */
    public Sampler sample() {
        return new Sampler();
    }

    /** A running sample of Dirty. */
    public final class Sampler implements AutoCloseable {
        private final LongAccumulator peak = new LongAccumulator(Math::max, Math.max(0, dirty()));
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread;

        private Sampler() {
            thread = new Thread(() -> {
                while (running.get()) {
                    peak.accumulate(dirty());
                    try {
                        Thread.sleep(POLL_MILLIS);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "sluice-dirty-sampler");
            thread.setDaemon(true);
            thread.start();
        }

        public long peak() {
            return peak.get();
        }

        @Override
        public void close() {
            running.set(false);
            thread.interrupt();
            try {
                thread.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            peak.accumulate(dirty());
        }
    }
}
