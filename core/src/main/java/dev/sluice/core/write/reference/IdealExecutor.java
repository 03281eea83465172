package dev.sluice.core.write.reference;

import dev.sluice.core.io.CountedStorage;
import dev.sluice.core.memory.HostBufferPool;
import dev.sluice.core.output.MapOutputFiles;
import dev.sluice.core.serde.StreamFormat;
import dev.sluice.core.write.BoundedPool;
import dev.sluice.core.write.MapTask;
import dev.sluice.core.write.ShuffleExecutor;
import dev.sluice.core.write.ShuffleWriter;
import dev.sluice.core.write.WriterConfig;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The reference's executor: one compression thread per core (not the strategies' {@code --threads}: the limit uses
 * the machine, not a configuration), and a pool of record buffers that every map task takes from and gives back to.
 */
final class IdealExecutor implements ShuffleExecutor {
    /** Compression tasks waiting for a thread; the task thread waits beyond that. */
    static final int BACKLOG = 1 << 16;

    private final WriterConfig config;
    private final CountedStorage storage;
    private final BufferAllocator allocator;
    private final HostBufferPool records;
    private final BoundedPool compression;

    IdealExecutor(WriterConfig config, CountedStorage storage, BufferAllocator allocator) {
        this.config = config;
        this.storage = storage;
        this.allocator = allocator;
        this.records = new HostBufferPool(allocator, WriterConfig.UNLIMITED, () -> 0);
        this.compression = new BoundedPool("sluice-ideal", Runtime.getRuntime().availableProcessors(), BACKLOG);
    }

    @Override
    public ShuffleWriter createMapOutputWriter(MapTask task) {
        BufferAllocator scratch = allocator.newChildAllocator("ideal map " + task.mapId, 0, Long.MAX_VALUE);
        try {
            return new IdealWriter(config, storage, new MapOutputFiles(config.outputDir, task.shuffleId, task.mapId),
                    task.format, scratch, records, compression);
        } catch (RuntimeException | Error e) {
            scratch.close();
            throw e;
        }
    }

    @Override
    public void close() {
        try {
            compression.close();
        } finally {
            records.close();
        }
    }
}
