package dev.sluice.spark;

import dev.sluice.spi.ShuffleWriter;
import java.io.IOException;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.spark.memory.MemoryConsumer;
import org.apache.spark.memory.MemoryMode;
import org.apache.spark.memory.TaskMemoryManager;

/**
 * A map task's rows, as Spark's memory manager sees them: heap memory acquired from the task's
 * {@link TaskMemoryManager} before the rows grow past it, as Spark's own shuffle writers register what they buffer
 * ({@code ShuffleExternalSorter extends MemoryConsumer}; Celeborn's {@code SortBasedPusher} and Comet's shuffle
 * allocator do the same), and held until the strategy no longer needs them: a cut batch's heap stays acquired until
 * every record of it was serialized by the strategy (compressed, or written), which may be on another thread
 * ({@link RowBatches.CutBatch}). When Spark gives less than asked, the batch being built is cut one step (1 MiB) past
 * what it granted.
 *
 * <p>When another consumer of the task needs memory, {@link #spill} gives nothing back at once: cutting the batch
 * frees no heap until the strategy has compressed its rows, and handing rows to the strategy may wait for the
 * strategy's threads, which may themselves be waiting for Spark's memory manager, whose lock Spark holds while it
 * calls {@code spill}. It asks for the batch to be cut at the next row instead, so that the rows move on to be
 * compressed (into partials, held by {@link StrategyMemory}); for that consumer it asks nothing, since the rows would
 * only become more partials.
 *
 * <p>What this consumer holds is read through {@code getUsed()}, never the field {@code used}: a {@code long} up to
 * Spark 4.1, an {@code AtomicLong} from 4.2, so one class file runs on both. Every change to it is made under the task
 * memory manager's lock, since the strategy's threads give cut batches back.
 */
final class TaskRows extends MemoryConsumer {
    /** Heap is acquired in steps of at least this much, so that a row is not a call into the memory manager. */
    static final long STEP = 1L << 20;

    private final TaskMemoryManager memory;
    private final RowBatches batches;
    private final ReentrantLock lock = new ReentrantLock();
    private ShuffleWriter writer;
    private long spills;
    /** Heap acquired for the batch being built; the task thread's. */
    private long building;
    /** The most heap Spark granted for the rows at once; guarded by the task memory manager's lock. */
    private long peak;
    /** Whether everything was given back for good; guarded by the task memory manager's lock. */
    private boolean closed;
    /** Spark gave less than asked for the batch being built: it is cut one step later, without asking again. */
    private boolean denied;
    /** Another consumer of the task asked for memory: the batch is cut at the next row. */
    private volatile boolean cutAsked;

    TaskRows(TaskMemoryManager memory, RowBatches batches) {
        super(memory, memory.pageSizeBytes(), MemoryMode.ON_HEAP);
        this.memory = memory;
        this.batches = batches;
    }

    /** Spark may take the rows from now on: {@code writer} receives the batches cut. */
    void open(ShuffleWriter writer) {
        lock.lock();
        try {
            this.writer = writer;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Serializes one record into the batch, cutting it when it is full, when Spark gives no more heap for it, or when
     * Spark asked for memory.
     */
    <K, V> void add(int partition, K key, V value) throws IOException, InterruptedException {
        lock.lock();
        try {
            boolean full = batches.add(partition, key, value);
            if (!full && !denied && !cover(batches.buffered())) {
                denied = true;
            }
            boolean asked = cutAsked;
            // Denied, the batch goes on to one step past what Spark granted, asking no more: cutting at every row
            // would make a piece per row, and asking at every row a call into the memory manager per row.
            if (full || asked || (denied && batches.buffered() >= building + STEP)) {
                if (asked && !full) {
                    spills++;
                }
                cut();
            }
        } finally {
            lock.unlock();
        }
    }

    /** The last batch goes to the writer; its heap, like every cut batch's, until the strategy serialized it. */
    void finish() throws IOException, InterruptedException {
        lock.lock();
        try {
            long charge = takeBuilding();
            batches.finish(writer, charge, this::serialized);
            writer = null;
        } finally {
            lock.unlock();
        }
    }

    /** Whatever happened: all the memory goes back to Spark, and no batch given back later changes anything. */
    void close() {
        lock.lock();
        try {
            writer = null;
            building = 0;
            synchronized (memory) {
                closed = true;
                long held = getUsed();
                if (held > 0) {
                    freeMemory(held);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** The most heap Spark granted for the rows at once: the batch being built and those not yet serialized. */
    long peak() {
        synchronized (memory) {
            return peak;
        }
    }

    /** Batches cut because Spark asked for memory. */
    long spills() {
        return spills;
    }

    private void cut() throws IOException, InterruptedException {
        cutAsked = false;
        long charge = takeBuilding();
        batches.cut(writer, charge, this::serialized);
    }

    /** The batch being built is being cut: its heap becomes the cut batch's charge. */
    private long takeBuilding() {
        denied = false;
        long charge = building;
        building = 0;
        return charge;
    }

    /** Any thread: the strategy serialized every record of a cut batch, which held {@code charge} bytes. */
    private void serialized(long charge) {
        synchronized (memory) {
            if (!closed && charge > 0) {
                freeMemory(charge);
            }
        }
    }

    /** Acquires heap until {@code bytes} are covered for the batch being built; false when Spark gave less. */
    private boolean cover(long bytes) {
        while (building < bytes) {
            long want = Math.max(STEP, bytes - building);
            long got;
            synchronized (memory) {
                got = acquireMemory(want);
                peak = Math.max(peak, getUsed());
            }
            building += got;
            if (got < want) {
                return false;
            }
        }
        return true;
    }

    /**
     * Another consumer of this task needs memory: nothing is given back now (see the class comment); the batch is cut
     * at the next row, so that its rows move on to the strategy and their heap comes back once compressed. Not for
     * this consumer's own request ({@link #add} cuts the batch itself then) nor for the strategy's partials.
     */
    @Override
    public long spill(long size, MemoryConsumer trigger) {
        if (trigger != this && !(trigger instanceof StrategyMemory)) {
            cutAsked = true;
        }
        return 0;
    }
}
