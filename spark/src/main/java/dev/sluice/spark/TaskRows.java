package dev.sluice.spark;

import dev.sluice.spi.ShuffleWriter;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.spark.memory.MemoryConsumer;
import org.apache.spark.memory.MemoryMode;
import org.apache.spark.memory.TaskMemoryManager;

/**
 * A map task's rows being batched, as Spark's memory manager sees them: heap memory acquired from the task's
 * {@link TaskMemoryManager} before the rows grow past it, as Spark's own shuffle writers register what they buffer
 * ({@code ShuffleExternalSorter extends MemoryConsumer}; Celeborn's {@code SortBasedPusher} and Comet's shuffle
 * allocator do the same). When Spark gives less than asked, the batch is cut one step (1 MiB) past what it granted;
 * when another consumer of the task needs memory, {@link #spill} cuts it too: the rows go to the strategy, which compresses them into partials, which
 * it bounds by {@code spark.sluice.memoryLimit} and spills to file itself. Rows handed to the strategy and not yet
 * compressed (at most its in-flight limit) are not counted here.
 *
 * <p>What this consumer holds is read through {@code getUsed()}, never the field {@code used}: a {@code long} up to
 * Spark 4.1, an {@code AtomicLong} from 4.2, so one class file runs on both lines.
 *
 * <p>Task thread, except {@link #spill}, which Spark may call from another thread of the task: it then gives nothing
 * back unless the rows are free to take (never waits, since Spark calls it holding the task memory manager's lock).
 */
final class TaskRows extends MemoryConsumer {
    /** Heap is acquired in steps of at least this much, so that a row is not a call into the memory manager. */
    static final long STEP = 1L << 20;

    private final RowBatches batches;
    private final ReentrantLock lock = new ReentrantLock();
    private ShuffleWriter writer;
    private long spills;
    /** The most heap Spark granted for the rows at once. */
    private long peak;
    /** Spark gave less than asked for the batch being built: it is cut one step later, without asking again. */
    private boolean denied;

    TaskRows(TaskMemoryManager memory, RowBatches batches) {
        super(memory, memory.pageSizeBytes(), MemoryMode.ON_HEAP);
        this.batches = batches;
    }

    /** Spark may take the rows from now on: {@code writer} receives the batch a spill cuts. */
    void open(ShuffleWriter writer) {
        lock.lock();
        try {
            this.writer = writer;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Serializes one record into the batch, cutting it when it is full or when Spark gives no more heap for it.
     */
    <K, V> void add(int partition, K key, V value) throws IOException, InterruptedException {
        lock.lock();
        try {
            boolean full = batches.add(partition, key, value);
            if (!full && !denied && !cover(batches.buffered())) {
                denied = true;
            }
            // Denied, the batch goes on to one step past what Spark granted, asking no more: cutting at every row
            // would make a piece per row, and asking at every row a call into the memory manager per row.
            if (full || (denied && batches.buffered() >= getUsed() + STEP)) {
                batches.cut(writer);
                giveBack();
            }
        } finally {
            lock.unlock();
        }
    }

    /** The last batch goes to the writer; the rows' memory goes back to Spark; no spill takes anything after. */
    void finish() throws IOException, InterruptedException {
        lock.lock();
        try {
            batches.finish(writer);
            giveBack();
            writer = null;
        } finally {
            lock.unlock();
        }
    }

    /** Whatever happened: the memory goes back to Spark, and no spill uses the writer any more. */
    void close() {
        lock.lock();
        try {
            writer = null;
            giveBack();
        } finally {
            lock.unlock();
        }
    }

    /** The most heap Spark granted for the rows at once. */
    long peak() {
        return peak;
    }

    /** Batches cut because Spark asked for memory. */
    long spills() {
        return spills;
    }

    /** Acquires heap until {@code bytes} are covered; false when Spark gave less than that. */
    private boolean cover(long bytes) {
        while (getUsed() < bytes) {
            long want = Math.max(STEP, bytes - getUsed());
            long got = acquireMemory(want);
            peak = Math.max(peak, getUsed());
            if (got < want) {
                return false;
            }
        }
        return true;
    }

    private void giveBack() {
        denied = false;
        long held = getUsed();
        if (held > 0) {
            freeMemory(held);
        }
    }

    /**
     * Another consumer of this task needs memory: cut the batch, so that its rows go to the strategy, and give their
     * heap back. Not for this consumer's own request ({@link #add} cuts the batch itself then).
     */
    @Override
    public long spill(long size, MemoryConsumer trigger) throws IOException {
        if (trigger == this || !lock.tryLock()) {
            return 0;
        }
        try {
            if (writer == null || getUsed() == 0) {
                return 0;
            }
            batches.cut(writer);
            spills++;
            long freed = getUsed();
            giveBack();
            return freed;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw (IOException) new InterruptedIOException("interrupted while Sluice cut a batch for Spark's memory "
                    + "manager").initCause(e);
        } finally {
            lock.unlock();
        }
    }
}
