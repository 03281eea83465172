package dev.sluice.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * What Ctrl-C (SIGINT) or SIGTERM does to a run: the JVM runs its shutdown hooks, and this one stops the run the way
 * a failure would (it interrupts the thread doing the work, whose wave aborts every writer, and writers remove their
 * files), waits a bounded time for that, then removes every file the run listed ({@link OwnedFiles}) whatever is
 * left, and says so on stderr. The JVM then exits with 128 + the signal's number (130, 143).
 */
final class Interruption implements AutoCloseable {
    /** How long the interrupted run may take to stop and clean up before its files are removed anyway. */
    static final long STOP_SECONDS = 60;

    private static volatile boolean happened;

    private final Thread hook;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean finished;
    private volatile OwnedFiles files;
    private volatile String cleanup;

    /** Whether a signal interrupted a run of this JVM: it is shutting down, and must not call System.exit. */
    static boolean happened() {
        return happened;
    }

    /**
     * Arms the hook for a run done by {@code work}. Close it last, once everything the run set up (its device too)
     * is undone: the hook removes the run's files only then.
     */
    Interruption(Thread work, PrintStream err) {
        hook = new Thread(() -> {
            if (finished) {
                return;
            }
            happened = true;
            OwnedFiles watched = files;
            err.println("sluice: interrupted: stopping the run" + (watched == null ? ""
                    : " and removing what it wrote to " + watched.directory()));
            if (watched != null) {
                watched.stopCreating();
            }
            work.interrupt();
            boolean clean;
            try {
                clean = stopped.await(STOP_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                clean = false;
            }
            watched = files;
            if (watched == null) {
                err.println(cleanup != null ? "sluice: interrupted; " + cleanup
                        : "sluice: interrupted before anything was written");
                return;
            }
            try {
                int removed = watched.removeAll();
                err.println("sluice: interrupted" + (clean ? "" : " (the run did not stop within " + STOP_SECONDS
                        + " s)") + "; nothing this run wrote is left in " + watched.directory() + " (the writers "
                        + "removed their files" + (removed == 0 ? "" : ", and the last check " + removed + " more")
                        + ")");
            } catch (IOException | RuntimeException e) {
                err.println("sluice: interrupted, and removing this run's files failed: " + e + "; they are listed in "
                        + watched.directory().resolve(OwnedFiles.LIST) + ", which the next run removes");
            }
        }, "sluice-interrupt");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /**
     * For a run that lists no files because it removes its own as it stops (as {@code device check} does): what it
     * leaves behind, in words, said once it has stopped.
     */
    void cleansUpItself(String what) {
        cleanup = what;
    }

    /** The files the run writes, from now on: what the hook removes. */
    void watch(OwnedFiles owned) {
        files = owned;
    }

    /** The run is over (done, failed or interrupted): the hook has nothing more to wait for. */
    @Override
    public void close() {
        finished = true;
        stopped.countDown();
        if (!happened) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // A signal arrived just now: the hook runs, sees the run finished, and does nothing.
            }
        }
    }
}
