package dev.sluice.core.cli;

import java.io.PrintStream;
import java.util.Locale;

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

    private double seconds() {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
