package dev.sluice.strategy.ideal;

import dev.sluice.spi.MapTask;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.ShuffleWriter;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.memory.HostAllocator;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.storage.MapOutputFiles;
import dev.sluice.strategy.support.BoundedPool;
import dev.sluice.strategy.support.HostBufferPool;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The reference's executor: one compression thread per core (not the strategies' {@code --threads}: the limit uses
 * the machine, not a configuration), and a pool of record buffers that every map task takes from and gives back to.
 */
final class IdealExecutor implements ShuffleExecutor {
    /** Compression tasks waiting for a thread; the task thread waits beyond that. */
    static final int BACKLOG = 1 << 16;

    private final WriterConfig config;
    private final CountedStorage storage;
    private final HostAllocator allocator;
    private final HostBufferPool records;
    private final BoundedPool compression;
    private final Slabs slabs;
    /** Map output writers made so far: each one's rank in the compression pool. */
    private final AtomicLong writers = new AtomicLong();

    IdealExecutor(WriterConfig config, CountedStorage storage, HostAllocator allocator) {
        this.config = config;
        this.storage = storage;
        this.allocator = allocator;
        this.records = new HostBufferPool(allocator, WriterConfig.UNLIMITED, () -> 0);
        int cores = Runtime.getRuntime().availableProcessors();
        this.compression = BoundedPool.ordered("sluice-ideal", cores, BACKLOG);
        this.slabs = new Slabs(records, cores);
    }

    @Override
    public ShuffleWriter createMapOutputWriter(MapTask task) {
        HostAllocator scratch = allocator.child("ideal map " + task.mapId);
        try {
            return new IdealWriter(config, storage, new MapOutputFiles(task.directory(config), task.shuffleId,
                    task.mapId), task.format, scratch, records, compression, slabs, writers.getAndIncrement());
        } catch (RuntimeException | Error e) {
            scratch.close();
            throw e;
        }
    }

    /** Bytes of fresh buffers the executor's tasks took so far: after the first wave, none more (a test's). */
    long freshBytes() {
        return records.freshBytes();
    }

    /** Bytes of those fresh buffers whose every page was touched before a record went into them (a test's). */
    long faultedInBytes() {
        return records.faultedInBytes();
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
