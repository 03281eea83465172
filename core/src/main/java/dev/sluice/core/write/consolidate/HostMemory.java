package dev.sluice.core.write.consolidate;

import dev.sluice.core.memory.MemoryBudget;
import dev.sluice.core.write.WriterConfig;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The executor's host memory, shared by all its map tasks as spark-rapids' {@code HostAlloc} is: what partials (and,
 * with an exact bound, records) hold, against the executor's limit if there is one. It also knows the partials that
 * hold memory and may be spilled, so that an exact bound can make room wherever the memory is.
 */
final class HostMemory {
    private final MemoryBudget budget;
    private final boolean limited;
    private final Set<PartialHandle> inMemory = ConcurrentHashMap.newKeySet();

    HostMemory(WriterConfig config) {
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
