package dev.sluice.strategy.consolidating;

import dev.sluice.spi.WriterConfig;
import dev.sluice.strategy.support.MemoryBudget;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The executor's host memory, shared by all its map tasks as spark-rapids' {@code HostAlloc} is: what partials (and,
 * with an exact bound, records) hold, against the executor's limit if there is one. It also knows the partials that
 * hold memory and may be spilled, so that an exact bound can make room wherever the memory is.
 */
final class ExecutorMemory {
    private final MemoryBudget budget;
    private final boolean limited;
    private final Set<PartialHandle> inMemory = ConcurrentHashMap.newKeySet();
    /** Finished partials spilled to make room for an allocation ({@link #spillLargestFinished}). */
    private final LongAdder finishedSpills = new LongAdder();

    ExecutorMemory(WriterConfig config) {
        this.limited = config.hasMemoryLimit();
        this.budget = new MemoryBudget(config.memoryLimit);
    }

    MemoryBudget budget() {
        return budget;
    }

    /**
     * {@code HostAlloc.isUsageBelowThreshold}: use below {@code threshold} of the limit; always true without a limit
     * (upstream counts an unlimited allocator as 0% used).
     */
    boolean usageBelow(double threshold) {
        return !limited || budget.used() < threshold * budget.limit();
    }

    void holdsMemory(PartialHandle partial) {
        inMemory.add(partial);
    }

    void freedMemory(PartialHandle partial) {
        inMemory.remove(partial);
    }

    /**
     * {@code HostAlloc}'s spill before a retry: spills the finished partial holding the most memory, skipping any
     * another thread holds at the moment (so a merger, which holds its own partial, never waits on another's); returns
     * the bytes it gave back, 0 if no finished partial could be spilled. Upstream spills only handles whose writing
     * has finished ({@code protectedFromSpill} in SpillablePartialFileHandle.scala @ e465ec3851).
     */
    long spillLargestFinished() throws IOException {
        return spillLargestFinished(null);
    }

    /** {@link #spillLargestFinished()} among {@code owner}'s partials only (every writer's where null). */
    long spillLargestFinished(WriterMemory owner) throws IOException {
        while (true) {
            PartialHandle largest = null;
            long most = 0;
            for (PartialHandle partial : inMemory) {
                if (owner != null && partial.owner() != owner) {
                    continue;
                }
                long held = partial.finishedSpillableBytes();
                if (held > most) {
                    most = held;
                    largest = partial;
                }
            }
            if (largest == null) {
                return 0;
            }
            long freed = largest.trySpillFinished();
            if (freed > 0) {
                finishedSpills.increment();
                return freed;
            }
            // Taken or pinned since it was measured: look again (the set only shrinks meanwhile or gains others).
            if (largest.finishedSpillableBytes() > 0) {
                return 0;
            }
        }
    }

    /** How many finished partials were spilled to make room for an allocation. */
    long finishedSpills() {
        return finishedSpills.sum();
    }

    /** Spills the partial holding the most memory that may be spilled now; returns the bytes it gave back. */
    long spillLargest() throws IOException {
        PartialHandle largest = null;
        long most = 0;
        for (PartialHandle partial : inMemory) {
            long held = partial.spillableBytes();
            if (held > most) {
                most = held;
                largest = partial;
            }
        }
        return largest == null ? 0 : largest.spill();
    }
}
