package dev.sluice.spi.storage;

import java.io.IOException;

/**
 * Runs every step of a clean-up even when some fail: the first failure is thrown at the end, later ones ride along
 * as suppressed, so that a failed delete never leaves the next file behind.
 */
public final class Cleanup {
    /** A clean-up step. */
    public interface Step {
        void run() throws IOException;
    }

    private IOException first;

    public Cleanup run(Step step) {
        try {
            step.run();
        } catch (IOException e) {
            add(e);
        } catch (RuntimeException e) {
            add(new IOException("clean-up step failed", e));
        }
        return this;
    }

    public void add(IOException e) {
        if (first == null) {
            first = e;
        } else {
            first.addSuppressed(e);
        }
    }

    /** Throws the first failure, if any step failed. */
    public void done() throws IOException {
        if (first != null) {
            throw first;
        }
    }
}
