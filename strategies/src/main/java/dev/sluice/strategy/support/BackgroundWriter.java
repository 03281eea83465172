package dev.sluice.strategy.support;

import dev.sluice.spi.MapOutput;
import dev.sluice.spi.ShuffleRecord;
import dev.sluice.spi.ShuffleWriter;
import java.io.IOException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What every writer that hands records to background threads shares: one life (open, then committed or aborted,
 * once), the first failure of its background work, and commit and abort wrapped around the strategy's own steps. A
 * writer that does all its work on the task thread (bypass, sort) has the same life with no background work.
 * Commit waits, interruptibly and for a bounded time, for the background work, then publishes; any failure on the
 * way aborts and is rethrown. Abort wakes the task thread wherever it waits, lets running work stop (a bounded wait,
 * so that no file is deleted while a thread still writes it), then has the strategy remove what it made.
 */
public abstract class BackgroundWriter implements ShuffleWriter {
    /** How long commit waits for queued records to be written. */
    protected static final long DRAIN_TIMEOUT_MINUTES = 10;
    /** How long abort waits for work in progress before it cleans up anyway. */
    static final long CLEANUP_TIMEOUT_SECONDS = 60;

    protected final PendingWork pending = new PendingWork();
    private final String name;
    private final int partitions;
    private boolean finished;

    /** @param name what failures are reported as, e.g. {@code per-batch writer for map 7} */
    protected BackgroundWriter(String name, int partitions) {
        this.name = name;
        this.partitions = partitions;
    }

    /** The strategy's part of {@link #write}: called while open and not failed, for a valid partition. */
    protected abstract void accept(ShuffleRecord record) throws IOException, InterruptedException;

    /** Called before commit or abort waits for the background work (a batch still open is closed here). */
    protected void beforeDrain() {}

    /**
     * Makes the output visible: once all background work finished without failure, or, where
     * {@link #publishesWhileWorking}, while it still runs (the strategy then waits for each piece it writes, for its
     * failure, and for all of it before it commits, itself).
     */
    protected abstract MapOutput publish() throws IOException, InterruptedException;

    /** True where {@link #publish} starts before the background work finished, writing each piece as it is ready. */
    protected boolean publishesWhileWorking() {
        return false;
    }

    /** Frees what only writing needed (scratch memory), after a successful commit. */
    protected abstract void releaseAfterCommit();

    /** After a failure, once background work stopped: removes files and frees memory; problems go to {@code cause}. */
    protected abstract void cleanUp(Throwable cause);

    /** Wakes anything the task thread may be waiting on (quota, memory) with the failure. */
    protected abstract void wakeWaiters(Throwable cause);

    @Override
    public final void write(ShuffleRecord record) throws IOException, InterruptedException {
        if (finished) {
            throw new IllegalStateException(name + " already committed or aborted");
        }
        int partition = record.partitionId();
        if (partition < 0 || partition >= partitions) {
            throw new IllegalArgumentException("record for partition " + partition + " of a writer with "
                    + partitions + " partitions");
        }
        try {
            throwIfFailed();
            accept(record);
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            abort(e);
            throw e;
        }
    }

    @Override
    public final MapOutput commit() throws IOException, InterruptedException {
        if (finished) {
            throw new IllegalStateException(name + " already committed or aborted");
        }
        try {
            beforeDrain();
            if (!publishesWhileWorking()) {
                pending.awaitIdle(DRAIN_TIMEOUT_MINUTES, TimeUnit.MINUTES);
                throwIfFailed();
            }
            MapOutput output = publish();
            finished = true;
            releaseAfterCommit();
            return output;
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            abort(e);
            throw e;
        } catch (TimeoutException e) {
            abort(e);
            throw new IOException(name + " timed out at commit", e);
        }
    }

    @Override
    public final void abort(Throwable cause) {
        if (finished) {
            return;
        }
        finished = true;
        fail(cause);
        beforeDrain();
        if (!pending.awaitIdleForCleanup(CLEANUP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            cause.addSuppressed(new TimeoutException("background work still running after "
                    + CLEANUP_TIMEOUT_SECONDS + " s; cleaning up anyway"));
        }
        cleanUp(cause);
    }

    @Override
    public final void close() {
        if (!finished) {
            abort(new CancellationException(name + " closed before commit"));
        }
    }

    /** Records the first failure of the writer and wakes the task thread. */
    protected final void fail(Throwable cause) {
        if (pending.fail(cause)) {
            wakeWaiters(cause);
        }
    }

    /** The first failure, or null. */
    protected final Throwable failure() {
        return pending.failure();
    }

    protected final void throwIfFailed() throws IOException {
        Throwable failure = pending.failure();
        if (failure != null) {
            throw new IOException(name + " failed", failure);
        }
    }
}
