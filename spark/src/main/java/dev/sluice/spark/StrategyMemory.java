package dev.sluice.spark;

import dev.sluice.spi.memory.Spillable;
import dev.sluice.spi.memory.TaskMemory;
import java.io.IOException;
import org.apache.spark.memory.MemoryConsumer;
import org.apache.spark.memory.TaskMemoryManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a map task's strategy holds for it (the consolidating strategies' partials), as Spark's memory manager sees it:
 * a {@link MemoryConsumer} of the task, of the memory mode Spark's own consumers use ({@code OFF_HEAP} where
 * {@code spark.memory.offHeap.enabled}, else {@code ON_HEAP}), which the strategy's writer charges before it allocates
 * a partial and which Spark may ask to {@link #spill}: the writer's finished partials go to file, the largest first,
 * as Comet's, Gluten's and Celeborn's writers each hold their memory as a consumer that spills when Spark asks. Where
 * Spark grants less than a partial needs, the partial goes to file, as where {@code spark.sluice.memoryLimit} refuses
 * it; that limit still bounds the executor JVM's partials together.
 *
 * <p>The strategy's threads (its mergers) acquire and release, not only the task's: every change to what this consumer
 * holds is made under the task memory manager's own lock, which Spark's {@code acquireExecutionMemory} takes anyway,
 * so that {@code used} (a plain {@code long} up to Spark 4.1) is never written by two threads at once and no other
 * lock is taken in an order Spark's could deadlock with. Spark calls {@link #spill} holding that lock; the writer's
 * spill never waits for a partial another thread holds.
 */
final class StrategyMemory extends MemoryConsumer implements TaskMemory {
    private static final Logger LOG = LoggerFactory.getLogger(StrategyMemory.class);
    private final TaskMemoryManager memory;
    private volatile Spillable spillable;

    StrategyMemory(TaskMemoryManager memory) {
        super(memory, memory.pageSizeBytes(), memory.getTungstenMemoryMode());
        this.memory = memory;
    }

    @Override
    public long acquire(long bytes) {
        synchronized (memory) {
            return acquireMemory(bytes);
        }
    }

    @Override
    public void release(long bytes) {
        synchronized (memory) {
            freeMemory(bytes);
        }
    }

    @Override
    public void spillable(Spillable spillable) {
        this.spillable = spillable;
    }

    /** Spark needs memory (for this consumer or another of the task): the writer's finished partials go to file. */
    @Override
    public long spill(long size, MemoryConsumer trigger) throws IOException {
        Spillable writer = spillable;
        if (writer == null) {
            return 0;
        }
        return writer.spill(size);
    }

    /**
     * The task's writer is done: Spark asks it for nothing more, and whatever it still holds goes back (a strategy
     * gives every byte back by its commit or abort, so this only logs a leak; Spark would free it at the task's end
     * too, with a warning).
     */
    void close() {
        spillable = null;
        synchronized (memory) {
            long held = getUsed();
            if (held > 0) {
                LOG.warn("The strategy still held {} bytes of task memory when its writer ended; given back", held);
                freeMemory(held);
            }
        }
    }
}
