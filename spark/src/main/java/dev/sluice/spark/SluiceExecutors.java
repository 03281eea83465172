package dev.sluice.spark;

import dev.sluice.core.strategy.StrategySpec;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.storage.Cleanup;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.storage.IoSnapshot;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * What an executor JVM's Sluice shares between its map tasks, as spark-rapids' pools are executor-wide: one counted
 * storage, one allocator, a scratch directory of its own inside one of Spark's local directories (so that handing a
 * finished data file to Spark is a rename), and one strategy executor per strategy spec and partition count (a
 * writer configuration holds the partition count), started by the first map task that needs it and shared by the
 * concurrent ones. Closing stops every executor, closes the allocator and removes the directory.
 */
final class SluiceExecutors implements AutoCloseable {
    private final SluiceSparkConf settings;
    private final Path dir;
    private final CountedStorage storage = new CountedStorage();
    private final BufferAllocator allocator = new RootAllocator();
    private final Map<String, ShuffleExecutor> executors = new LinkedHashMap<>();
    private final java.util.concurrent.atomic.AtomicLong batches = new java.util.concurrent.atomic.AtomicLong();
    private boolean closed;

    /** Creates nothing on disk yet: {@code localDir} gets a {@code sluice-<uuid>} directory on first use. */
    SluiceExecutors(SluiceSparkConf settings, Path localDir) {
        this.settings = settings;
        this.dir = localDir.resolve("sluice-" + UUID.randomUUID());
    }

    /** The executor of {@code spec} for shuffles of {@code partitions} partitions, started if it is not yet. */
    synchronized ShuffleExecutor executor(StrategySpec spec, int partitions) {
        if (closed) {
            throw new IllegalStateException("Sluice's executors were closed (the shuffle manager stopped)");
        }
        String key = spec.text() + " / " + partitions + " partitions";
        ShuffleExecutor executor = executors.get(key);
        if (executor == null) {
            executor = spec.createExecutor(settings.writerConfig(partitions, dir), storage,
                    allocator.newChildAllocator("strategy " + key, 0, Long.MAX_VALUE));
            executors.put(key, executor);
        }
        return executor;
    }

    CountedStorage storage() {
        return storage;
    }

    Path dir() {
        return dir;
    }

    /** Sluice's counted I/O in this JVM so far, all strategies and map tasks together. */
    IoSnapshot counters() {
        return storage.counters().snapshot();
    }

    /** Counts {@code n} batches cut by a map task that committed. */
    void addBatches(long n) {
        batches.addAndGet(n);
    }

    /** Batches cut by this JVM's committed Sluice map tasks so far. */
    long batches() {
        return batches.get();
    }

    /** Direct memory the strategies hold now (their Arrow allocators, all together). */
    long allocatedBytes() {
        return allocator.getAllocatedMemory();
    }

    /** The most direct memory the strategies held at once since this JVM's first Sluice map task. */
    long peakAllocatedBytes() {
        return allocator.getPeakMemoryAllocation();
    }

    /** Executors started so far, by spec and partition count. */
    synchronized List<String> started() {
        return new ArrayList<>(executors.keySet());
    }

    /**
     * Stops every executor (each waits, bounded, for its threads), closes the allocator (which fails if a strategy
     * still holds memory) and removes the scratch directory; the first failure is thrown after all was tried.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        RuntimeException failure = null;
        for (ShuffleExecutor executor : executors.values()) {
            try {
                executor.close();
            } catch (RuntimeException e) {
                failure = add(failure, e);
            }
        }
        executors.clear();
        try {
            for (BufferAllocator child : new ArrayList<>(allocator.getChildAllocators())) {
                child.close();
            }
            allocator.close();
        } catch (RuntimeException e) {
            failure = add(failure, e);
        }
        try {
            Cleanup.deleteTree(dir);
        } catch (IOException e) {
            failure = add(failure, new java.io.UncheckedIOException("removing " + dir + " failed", e));
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static RuntimeException add(RuntimeException first, RuntimeException next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }
}
