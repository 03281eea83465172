package dev.sluice.core.write.perbatch;

import dev.sluice.core.io.CountedStorage;
import dev.sluice.core.memory.BudgetedAllocationListener;
import dev.sluice.core.memory.MemoryBudget;
import dev.sluice.core.output.MapOutputFiles;
import dev.sluice.core.write.MapTask;
import dev.sluice.core.write.ShuffleExecutor;
import dev.sluice.core.write.ShuffleWriter;
import dev.sluice.core.write.Slots;
import dev.sluice.core.write.WriterConfig;
import org.apache.arrow.memory.BufferAllocator;

/** The per-batch strategy's executor: the writer slots every map task shares. */
final class PerBatchExecutor implements ShuffleExecutor {
    private final WriterConfig config;
    private final PerBatchSettings settings;
    private final CountedStorage storage;
    private final BufferAllocator allocator;
    private final Slots slots;

    PerBatchExecutor(WriterConfig config, PerBatchSettings settings, CountedStorage storage, BufferAllocator allocator) {
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
        BufferAllocator writerMemory = allocator.newChildAllocator("per-batch map " + task.mapId,
                new BudgetedAllocationListener(memory), 0, Long.MAX_VALUE);
        try {
            MapOutputFiles files = new MapOutputFiles(config.outputDir, task.shuffleId, task.mapId);
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
