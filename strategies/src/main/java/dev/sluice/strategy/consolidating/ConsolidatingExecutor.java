package dev.sluice.strategy.consolidating;

import dev.sluice.spi.MapTask;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.ShuffleWriter;
import dev.sluice.spi.StreamFormat;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.memory.HostAllocator;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.storage.MapOutputFiles;
import dev.sluice.strategy.support.BoundedPool;
import dev.sluice.strategy.support.HostBufferPool;
import dev.sluice.strategy.support.HostBuffers;
import dev.sluice.strategy.support.Slots;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;

/**
 * What a consolidating strategy shares between the map tasks of an executor, as spark-rapids shares them: the writer
 * threads that compress records ({@code threads} slots, or a pool), the merger threads ({@code mergerThreads} slots
 * or a pool), and the host memory with its limit. Partial buffers come from one Arrow allocator, which mallocs
 * without zeroing; with {@code pool=true}, from the executor's {@link HostBufferPool}, which the map tasks give them
 * back to.
 */
public final class ConsolidatingExecutor implements ShuffleExecutor {
    /** Compression tasks waiting for a pool thread; the task thread waits beyond that (the in-flight quota bounds it first). */
    static final int COMPRESSION_BACKLOG = 4096;
    /** Merger runs waiting for a pool thread: at most one per unfinished batch, which memory bounds. */
    static final int MERGER_BACKLOG = 1 << 20;

    private final String strategy;
    private final WriterConfig config;
    private final ConsolidatingSettings settings;
    private final CountedStorage storage;
    private final HostAllocator allocator;
    private final HostBuffers partials;
    /** With {@code pool=true}: partials and direct records; null otherwise. */
    private final HostBufferPool pool;
    private final ByteBufAllocator recordBuffers = PooledByteBufAllocator.DEFAULT;
    private final ExecutorMemory host;
    private final AutoCloseable compression;
    private final AutoCloseable mergers;

    public ConsolidatingExecutor(String strategy, WriterConfig config, ConsolidatingSettings settings,
                                 CountedStorage storage, HostAllocator allocator) {
        this.strategy = strategy;
        this.config = config;
        this.settings = settings;
        this.storage = storage;
        this.allocator = allocator;
        // One executor-wide memory per scope: the host's limit bounds all its executors together, and any of them may
        // spill another's finished partials to make room, as spark-rapids' HostAlloc is one per executor JVM.
        this.host = config.memoryScope == null ? new ExecutorMemory(config)
                : config.memoryScope.shared(ExecutorMemory.class, () -> new ExecutorMemory(config));
        String prefix = "sluice-" + strategy;
        // Not a child allocator of the executor's own: a segment catalog keeps partials after its executor closes
        // (a closed pool frees what is given back to it).
        this.pool = settings.pool ? new HostBufferPool(allocator, config.memoryLimit, () -> host.budget().used()) : null;
        this.partials = pool != null ? pool : HostBuffers.malloc(allocator);
        AutoCloseable threads = null;
        try {
            threads = settings.compression == Modes.Compression.SLOTS ? new Slots(config.threads, prefix + "-writer")
                    : new BoundedPool(prefix + "-writer", config.threads, COMPRESSION_BACKLOG);
            this.compression = threads;
            this.mergers = settings.merger == Modes.Merger.BLOCKING ? new Slots(settings.mergerThreads, prefix + "-merger")
                    : new BoundedPool(prefix + "-merger", settings.mergerThreads, MERGER_BACKLOG);
        } catch (RuntimeException | Error e) {
            closeQuietly(threads, e);
            if (pool != null) {
                pool.close();
            }
            throw e;
        }
    }

    @Override
    public ShuffleWriter createMapOutputWriter(MapTask task) {
        // Compression scratch is covered by each record's memory charge, so this allocator charges nothing itself.
        HostAllocator scratch = allocator.child(strategy + " map " + task.mapId);
        try {
            MapOutputFiles files = new MapOutputFiles(task.directory(config), task.shuffleId, task.mapId);
            return new ConsolidatingWriter(this, files, task.format, task.memory, scratch);
        } catch (RuntimeException | Error e) {
            scratch.close();
            throw e;
        }
    }

    String strategy() {
        return strategy;
    }

    WriterConfig config() {
        return config;
    }

    ConsolidatingSettings settings() {
        return settings;
    }

    CountedStorage storage() {
        return storage;
    }

    ByteBufAllocator recordBuffers() {
        return recordBuffers;
    }

    /** The executor's pool ({@code pool=true}); null without one. */
    HostBufferPool recordPool() {
        return pool;
    }

    /**
     * Where {@code recordBuffer=direct} records are compressed into when not Netty's pooled buffers: the pool, or with
     * {@code partial=records} the allocator (a partial holds its records, and Netty's direct buffers are capped by
     * {@code -XX:MaxDirectMemorySize}); null for Netty's.
     */
    HostBuffers hostRecordBuffers() {
        if (pool != null) {
            return pool;
        }
        return settings.partial == Modes.Partial.RECORDS ? partials : null;
    }

    ExecutorMemory host() {
        return host;
    }

    /** A new batch's partial for a writer with {@code memory}, spilling to files named by {@code files}. */
    PartialHandle newPartial(WriterMemory memory, MapOutputFiles files) {
        return new PartialHandle(memory, host, partials, storage, files::newTempShuffleFile, settings);
    }

    RecordCompression compressionFor(int partitions) {
        return compression instanceof Slots ? new RecordCompression.PinnedToSlots((Slots) compression, partitions)
                : new RecordCompression.SharedPool((BoundedPool) compression);
    }

    BatchMerger newMerger(MergeEvents writer, PartialHandle partial, StreamFormat format) {
        byte[] header = format.streamHeader();
        byte[] end = format.endOfStream();
        return mergers instanceof Slots
                ? new BlockingMerger(writer, partial, config.partitions, header, end, (Slots) mergers)
                : new CooperativeMerger(writer, partial, config.partitions, header, end, (BoundedPool) mergers);
    }

    @Override
    public void close() {
        try {
            closeThreads(compression);
        } finally {
            try {
                closeThreads(mergers);
            } finally {
                if (pool != null) {
                    pool.close();
                }
            }
        }
    }

    private static void closeThreads(AutoCloseable threads) {
        try {
            threads.close();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void closeQuietly(AutoCloseable threads, Throwable cause) {
        if (threads != null) {
            try {
                threads.close();
            } catch (Exception e) {
                cause.addSuppressed(e);
            }
        }
    }
}
