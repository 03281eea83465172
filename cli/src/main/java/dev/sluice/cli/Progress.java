package dev.sluice.cli;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** Progress of a long step on stderr: a line at each tenth of the way, so that a log shows it too. */
final class Progress {
    private final PrintStream err;
    private final String step;
    private final long total;
    private final long startNanos = System.nanoTime();
    private int lastTenth = -1;

    Progress(PrintStream err, String step, long total) {
        this.err = err;
        this.step = step;
        this.total = Math.max(1, total);
        err.printf(Locale.ROOT, "sluice: %s...%n", step);
    }

    synchronized void update(long done) {
        int tenth = (int) Math.min(10, done * 10 / total);
        if (tenth > lastTenth && tenth < 10) {
            lastTenth = tenth;
            if (tenth > 0) {
                err.printf(Locale.ROOT, "sluice:   %s %d%% (%.1f s)%n", step, tenth * 10, seconds());
            }
        }
    }

    synchronized void done(String detail) {
        err.printf(Locale.ROOT, "sluice: %s done in %.1f s%s%n", step, seconds(), detail.isEmpty() ? "" : ": " + detail);
    }

    /** How often a long step with no tenths to report says it is still going. */
    static final long TICK_SECONDS = 10;

    /**
     * Until closed, a line every {@code seconds} with the time so far and {@code detail}'s words, for a step whose
     * progress is not known in tenths (a wave).
     */
    Ticker every(long seconds, Supplier<String> detail) {
        return new Ticker(seconds, detail);
    }

    /** The thread of {@link #every}; closing it stops and joins it. */
    final class Ticker implements AutoCloseable {
        private final Thread thread;

        private Ticker(long seconds, Supplier<String> detail) {
            thread = new Thread(() -> {
                try {
                    while (true) {
                        Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
                        synchronized (Progress.this) {
                            err.printf(Locale.ROOT, "sluice:   %s: %.0f s, %s%n", step, seconds(), detail.get());
                        }
                    }
                } catch (InterruptedException e) {
                    // closed
                }
            }, "sluice-progress");
            thread.setDaemon(true);
            thread.start();
        }

        @Override
        public void close() throws InterruptedException {
            thread.interrupt();
            thread.join();
        }
    }

    private double seconds() {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
