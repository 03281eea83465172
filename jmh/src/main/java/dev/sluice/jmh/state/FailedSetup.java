package dev.sluice.jmh.state;

/**
 * JMH runs no teardown after a failed setup: a state whose setup fails undoes what it made itself, and a failure of
 * that undo travels with the setup's as a suppressed exception.
 */
public final class FailedSetup {
    /** What a state's teardown does. */
    @FunctionalInterface
    public interface Undo {
        void run() throws Exception;
    }

    private FailedSetup() {}

    /** Runs {@code undo} after {@code failure}, adding any failure of it to {@code failure}; the caller rethrows. */
    public static void undo(Throwable failure, Undo undo) {
        try {
            undo.run();
        } catch (Exception | Error suppressed) {
            failure.addSuppressed(suppressed);
        }
    }
}
