package dev.sluice.strategy.sort;

import dev.sluice.spi.MapTask;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.ShuffleWriter;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.memory.HostAllocator;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.storage.MapOutputFiles;
import dev.sluice.strategy.support.BudgetedAllocationListener;
import dev.sluice.strategy.support.HostBufferPool;
import dev.sluice.strategy.support.MemoryBudget;

/**
 * The sort strategy's executor: its execution memory, which its map tasks share as Spark's tasks share the pool, and
 * the pages they take from it. Pages given back are kept for the next task, as Spark's {@code HeapMemoryAllocator}
 * pools pages of 1 MiB and more, so that a steady stream of tasks does not pay fresh pages' faults.
 */
final class SortExecutor implements ShuffleExecutor {
    private final WriterConfig config;
    private final SortSettings settings;
    private final CountedStorage storage;
    private final HostAllocator allocator;
    private final ExecutionMemory memory;
    private final HostAllocator pageMemory;
    private final HostBufferPool pages;

    SortExecutor(WriterConfig config, SortSettings settings, CountedStorage storage, HostAllocator allocator) {
        this.config = config;
        this.settings = settings;
        this.storage = storage;
        this.allocator = allocator;
        this.memory = new ExecutionMemory(config);
        this.pageMemory = allocator.child("sort pages");
        this.pages = new HostBufferPool(pageMemory, config.memoryLimit, memory::used);
    }

    @Override
    public ShuffleWriter createMapOutputWriter(MapTask task) {
        // The writer's own peak: its pages, pointer array and buffers, whatever the execution memory granted.
        MemoryBudget held = new MemoryBudget(Long.MAX_VALUE);
        HostAllocator writerMemory = allocator.child("sort map " + task.mapId, new BudgetedAllocationListener(held));
        try {
            MapOutputFiles files = new MapOutputFiles(task.directory(config), task.shuffleId, task.mapId);
            return new SortWriter(config, settings, storage, files, task.format, writerMemory, held, memory, pages);
        } catch (RuntimeException | Error e) {
            writerMemory.close();
            throw e;
        }
    }

    @Override
    public void close() {
        try {
            pages.close();
        } finally {
            pageMemory.close();
        }
    }
}
