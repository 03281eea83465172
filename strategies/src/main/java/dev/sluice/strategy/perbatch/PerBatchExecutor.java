package dev.sluice.strategy.perbatch;

import dev.sluice.spi.MapTask;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.ShuffleWriter;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.memory.HostAllocator;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.storage.MapOutputFiles;
import dev.sluice.strategy.support.BudgetedAllocationListener;
import dev.sluice.strategy.support.MemoryBudget;
import dev.sluice.strategy.support.Slots;

/** The per-batch strategy's executor: the writer slots every map task shares. */
final class PerBatchExecutor implements ShuffleExecutor {
    private final WriterConfig config;
    private final PerBatchSettings settings;
    private final CountedStorage storage;
    private final HostAllocator allocator;
    private final Slots slots;

    PerBatchExecutor(WriterConfig config, PerBatchSettings settings, CountedStorage storage, HostAllocator allocator) {
        this.config = config;
        this.settings = settings;
        this.storage = storage;
        this.allocator = allocator;
        this.slots = new Slots(config.threads, "sluice-per-batch-writer");
    }

    @Override
    public ShuffleWriter createMapOutputWriter(MapTask task) {
        // Per-batch has no memory limit to enforce: it holds one file buffer per open partition by design.
        MemoryBudget memory = new MemoryBudget(Long.MAX_VALUE);
        HostAllocator writerMemory = allocator.child("per-batch map " + task.mapId, new BudgetedAllocationListener(memory));
        try {
            MapOutputFiles files = new MapOutputFiles(task.directory(config), task.shuffleId, task.mapId);
            return new PerBatchWriter(config, settings, storage, slots, files, writerMemory, memory, task.format);
        } catch (RuntimeException | Error e) {
            writerMemory.close();
            throw e;
        }
    }

    @Override
    public void close() {
        slots.close();
    }
}
