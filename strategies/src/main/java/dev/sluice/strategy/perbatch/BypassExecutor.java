package dev.sluice.strategy.perbatch;

import dev.sluice.spi.MapTask;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.ShuffleWriter;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.memory.HostAllocator;
import dev.sluice.spi.option.OptionValues;
import dev.sluice.spi.storage.ChecksumAlgorithm;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.storage.MapOutputFiles;
import dev.sluice.strategy.support.BudgetedAllocationListener;
import dev.sluice.strategy.support.ChecksumOptions;
import dev.sluice.strategy.support.MemoryBudget;
import dev.sluice.strategy.support.MergeCopy;

/** The bypass strategy's executor: nothing shared between its map tasks but the storage and the memory. */
final class BypassExecutor implements ShuffleExecutor {
    private final WriterConfig config;
    private final CountedStorage storage;
    private final HostAllocator allocator;
    private final int fileBuffer;
    private final MergeCopy mergeCopy;
    private final ChecksumAlgorithm checksum;

    BypassExecutor(WriterConfig config, OptionValues options, CountedStorage storage, HostAllocator allocator) {
        this.config = config;
        this.storage = storage;
        this.allocator = allocator;
        this.fileBuffer = Math.toIntExact(options.get(BypassWriterFactory.FILE_BUFFER));
        this.mergeCopy = options.get(BypassWriterFactory.MERGE_COPY);
        this.checksum = ChecksumOptions.algorithm(options, BypassWriterFactory.CHECKSUM);
    }

    @Override
    public ShuffleWriter createMapOutputWriter(MapTask task) {
        // As Spark's: a buffer per open partition file, whatever the limit.
        MemoryBudget memory = new MemoryBudget(Long.MAX_VALUE);
        HostAllocator writerMemory = allocator.child("bypass map " + task.mapId, new BudgetedAllocationListener(memory));
        try {
            MapOutputFiles files = new MapOutputFiles(task.directory(config), task.shuffleId, task.mapId);
            return new BypassWriter(config, storage, files, task.format, writerMemory, memory, fileBuffer, mergeCopy,
                    checksum);
        } catch (RuntimeException | Error e) {
            writerMemory.close();
            throw e;
        }
    }

    @Override
    public void close() {}
}
