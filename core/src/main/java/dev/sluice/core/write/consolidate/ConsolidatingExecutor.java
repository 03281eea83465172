package dev.sluice.core.write.consolidate;

import dev.sluice.core.io.CountedStorage;
import dev.sluice.core.memory.MemoryBudget;
import dev.sluice.core.output.MapOutputFiles;
import dev.sluice.core.serde.RecordSerializer;
import dev.sluice.core.write.BoundedPool;
import dev.sluice.core.write.MapTask;
import dev.sluice.core.write.ShuffleExecutor;
import dev.sluice.core.write.ShuffleWriter;
import dev.sluice.core.write.WriterConfig;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The pools a consolidating strategy shares between the map tasks of an executor, as spark-rapids shares its writer
 * and merger thread pools: {@code threads} compression threads and {@code merger-threads} merger threads. Each map
 * task's writer gets its own memory budget of {@code memory-limit} bytes.
 */
public final class ConsolidatingExecutor implements ShuffleExecutor {
    /** Compression tasks waiting for a thread; the task thread waits beyond that (memory bounds it first). */
    static final int COMPRESSION_BACKLOG = 4096;
    /** Merger runs waiting for a thread: at most one per unfinished batch, which memory bounds. */
    static final int MERGER_BACKLOG = 1 << 20;

    private final String strategy;
    private final WriterConfig config;
    private final CountedStorage storage;
    private final BufferAllocator allocator;
    private final ByteBufAllocator buffers = PooledByteBufAllocator.DEFAULT;
    private final BoundedPool compression;
    private final BoundedPool mergers;
    private final Function<WriterContext, ConsolidatingWriter> writers;

    public ConsolidatingExecutor(String strategy, WriterConfig config, CountedStorage storage, BufferAllocator allocator,
                                 Function<WriterContext, ConsolidatingWriter> writers) {
        this.strategy = strategy;
        this.config = config;
        this.storage = storage;
        this.allocator = allocator;
        this.writers = writers;
        this.compression = new BoundedPool("sluice-" + strategy + "-writer", config.threads, COMPRESSION_BACKLOG);
        BoundedPool mergerPool;
        try {
            mergerPool = new BoundedPool("sluice-" + strategy + "-merger", config.mergerThreads, MERGER_BACKLOG);
        } catch (RuntimeException | Error e) {
            compression.close();
            throw e;
        }
        this.mergers = mergerPool;
    }

    @Override
    public ShuffleWriter createMapOutputWriter(MapTask task) {
        // Compression scratch is covered by each record's memory reservation, so this allocator charges nothing itself.
        BufferAllocator scratch = allocator.newChildAllocator(strategy + " map " + task.mapId, 0, Long.MAX_VALUE);
        try {
            MapOutputFiles files = new MapOutputFiles(config.outputDir, task.shuffleId, task.mapId);
            RecordSerializer serializer = new RecordSerializer(task.schema, config.codec, scratch);
            return writers.apply(new WriterContext(strategy, config, storage, files, serializer, scratch, buffers,
                    new MemoryBudget(config.memoryLimit), compression, mergers));
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
            mergers.close();
        }
    }
}
