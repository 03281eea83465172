package dev.sluice.spark;

import dev.sluice.core.strategy.StrategySpec;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.memory.MemoryScope;
import dev.sluice.spi.storage.Cleanup;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.storage.IoSnapshot;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an executor JVM's Sluice shares between its map tasks, as spark-rapids' pools are executor-wide: one counted
 * storage, one allocator, a scratch directory of its own inside each of Spark's local directories (a map task writes in
 * the one where Spark will put its data file, so that handing the file to Spark is a rename), and one strategy executor per strategy spec and partition count (a
 * writer configuration holds the partition count), started by the first map task that needs it and shared by the
 * concurrent ones, and retired once Spark unregistered every shuffle that used it. Closing stops every executor, closes
 * the allocator and removes the directory.
 */
final class SluiceExecutors implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SluiceExecutors.class);
    private final SluiceSparkConf settings;
    /** Spark's local dirs of this executor ({@code DiskBlockManager.localDirs}, one per disk) and Sluice's in each. */
    private final List<Path> localDirs;
    private final List<Path> dirs;
    private final java.util.concurrent.atomic.AtomicLong renamed = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong copied = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong acrossLocalDirs = new java.util.concurrent.atomic.AtomicLong();
    private final CountedStorage storage = new CountedStorage();
    /** One memory limit for the JVM: every strategy executor here shares it (spark.sluice.memoryLimit). */
    private final MemoryScope memory = new MemoryScope();
    private final BufferAllocator allocator = new RootAllocator();
    private final Map<String, Started> executors = new LinkedHashMap<>();
    private final java.util.concurrent.atomic.AtomicLong batches = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong batchesForMemory = new java.util.concurrent.atomic.AtomicLong();
    private boolean closed;
    private long startedSoFar;

    /**
     * Creates nothing on disk yet: each of Spark's {@code localDirs} gets a {@code sluice-<uuid>} directory when the
     * first map task whose data file Spark puts there starts.
     */
    SluiceExecutors(SluiceSparkConf settings, List<Path> localDirs) {
        if (localDirs.isEmpty()) {
            throw new IllegalArgumentException("no local dir: Spark's block manager has none");
        }
        this.settings = settings;
        this.localDirs = List.copyOf(localDirs);
        String name = "sluice-" + UUID.randomUUID();
        List<Path> mine = new ArrayList<>();
        for (Path localDir : localDirs) {
            mine.add(localDir.resolve(name));
        }
        this.dirs = List.copyOf(mine);
    }

    /**
     * The executor of {@code spec} for shuffles of {@code partitions} partitions, started if it is not yet, leased to
     * one map task of {@code shuffleId}: it is retired (its threads stopped, its allocator closed) once every shuffle
     * that used it was unregistered and no lease is out, so that a long application does not keep one pool per
     * partition count it ever saw. {@code registered} false: Spark unregistered the shuffle already (a task that
     * outlived its stage), so it is not counted as using the executor: nothing would unregister it again.
     */
    synchronized Lease lease(StrategySpec spec, int partitions, int shuffleId, boolean registered) {
        if (closed) {
            throw new IllegalStateException("Sluice's executors were closed (the shuffle manager stopped)");
        }
        String key = spec.text() + " / " + partitions + " partitions";
        Started started = executors.get(key);
        if (started == null) {
            BufferAllocator child = allocator.newChildAllocator("strategy " + key, 0, Long.MAX_VALUE);
            try {
                started = new Started(key, spec.createExecutor(settings.writerConfig(partitions, dirs.get(0), memory), storage, child),
                        child);
            } catch (RuntimeException | Error e) {
                child.close();
                throw e;
            }
            executors.put(key, started);
            startedSoFar++;
        }
        if (registered) {
            started.shuffles.add(shuffleId);
        }
        started.leases++;
        return new Lease(started);
    }

    /**
     * Forgets {@code shuffleId} (Spark unregistered it) and retires every executor no other shuffle uses and no map
     * task holds. Never throws: Spark calls this from its block manager's endpoint, and a failure to stop a pool is
     * logged, not a reason to fail the shuffle's removal.
     */
    void unregister(int shuffleId) {
        List<Started> idle = new ArrayList<>();
        synchronized (this) {
            for (Started started : executors.values()) {
                if (started.shuffles.remove(shuffleId) && started.idle()) {
                    idle.add(started);
                }
            }
            idle.forEach(started -> executors.remove(started.key));
        }
        idle.forEach(SluiceExecutors::retire);
    }

    private void released(Started started) {
        boolean retire;
        synchronized (this) {
            started.leases--;
            retire = started.idle() && executors.get(started.key) == started;
            if (retire) {
                executors.remove(started.key);
            }
        }
        if (retire) {
            retire(started);
        }
    }

    private static void retire(Started started) {
        try {
            started.close();
            LOG.info("Retired Sluice's executor {}: no registered shuffle uses it", started.key);
        } catch (RuntimeException e) {
            LOG.warn("Retiring Sluice's executor " + started.key + " failed", e);
        }
    }

    /** A map task's hold on a strategy executor; released once, whatever the task's end. */
    final class Lease {
        private final Started started;
        private boolean released;

        private Lease(Started started) {
            this.started = started;
        }

        ShuffleExecutor executor() {
            return started.executor;
        }

        /** Once; from the task's thread (its writer, its completion listener), or another (Spark's stop). */
        synchronized void release() {
            if (!released) {
                released = true;
                released(started);
            }
        }
    }

    /** A started strategy executor, its allocator, the shuffles that used it and the map tasks holding it now. */
    private static final class Started {
        final String key;
        final ShuffleExecutor executor;
        final BufferAllocator allocator;
        final Set<Integer> shuffles = new HashSet<>();
        int leases;

        Started(String key, ShuffleExecutor executor, BufferAllocator allocator) {
            this.key = key;
            this.executor = executor;
            this.allocator = allocator;
        }

        /** Guarded by the owner's lock. */
        boolean idle() {
            return shuffles.isEmpty() && leases == 0;
        }

        /** Stops the executor (bounded wait for its threads), then closes its allocator, which fails on a leak. */
        void close() {
            try {
                executor.close();
            } catch (RuntimeException e) {
                try {
                    allocator.close();
                } catch (RuntimeException leak) {
                    e.addSuppressed(leak);
                }
                throw e;
            }
            allocator.close();
        }
    }

    CountedStorage storage() {
        return storage;
    }

    /**
     * The scratch directory for a map task whose data file Spark will put at {@code dataFile}: Sluice's in the same
     * local dir, so that {@code transferMapSpillFile}'s move is a rename. Spark hashes each map's files across its
     * local dirs ({@code DiskBlockManager.getFile}: {@code localDirs(hash % n)/subdir/name}); with one fixed scratch
     * dir every map whose file hashes elsewhere would be copied across devices, and one disk would take all writes.
     */
    Path scratchFor(java.io.File dataFile) {
        Path file = dataFile.toPath().toAbsolutePath();
        for (int i = 0; i < localDirs.size(); i++) {
            if (file.startsWith(localDirs.get(i).toAbsolutePath())) {
                return dirs.get(i);
            }
        }
        throw new IllegalStateException("Spark's data file " + dataFile + " is in none of its local dirs " + localDirs);
    }

    /** Sluice's scratch directories, one in each of Spark's local dirs (made on first use). */
    List<Path> dirs() {
        return dirs;
    }

    /**
     * Counts how Spark took a data file over: from Sluice's scratch dir in the same local dir as its final name or from
     * another, and (where the file system says) by a rename (the file at its final name is the one Sluice wrote, the
     * same inode) or not.
     */
    void transferred(Path scratch, java.io.File taken, Boolean byRename) {
        Path file = taken.toPath().toAbsolutePath();
        if (!file.startsWith(scratch.toAbsolutePath().getParent())) {
            acrossLocalDirs.incrementAndGet();
        }
        if (byRename != null) {
            (byRename ? renamed : copied).incrementAndGet();
        }
    }

    /** Data files Spark took over from a scratch dir in another local dir than their final name's, so far. */
    long transfersAcrossLocalDirs() {
        return acrossLocalDirs.get();
    }

    /** Data files Spark took over by a rename, so far. */
    long transfersByRename() {
        return renamed.get();
    }

    /**
     * Data files whose final name holds another file after Spark took them over, so far: a copy across devices (or an
     * earlier attempt's output that Spark kept, which attempt ids as map ids rule out).
     */
    long transfersByCopy() {
        return copied.get();
    }

    /** Sluice's counted I/O in this JVM so far, all strategies and map tasks together. */
    IoSnapshot counters() {
        return storage.counters().snapshot();
    }

    /** Counts {@code n} batches cut by a map task that committed, {@code forMemory} of them because Spark asked. */
    void addBatches(long n, long forMemory) {
        batches.addAndGet(n);
        batchesForMemory.addAndGet(forMemory);
    }

    /** Batches cut by this JVM's committed Sluice map tasks because Spark's memory manager asked (a spill). */
    long batchesForMemory() {
        return batchesForMemory.get();
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

    /** Strategy executors started in this JVM so far, retired ones included. */
    synchronized long startedSoFar() {
        return startedSoFar;
    }

    /** The root of the strategies' allocators, for the test that a leak found at stop is logged, not thrown. */
    BufferAllocator allocator() {
        return allocator;
    }

    /** Executors running now (started and not retired), by spec and partition count. */
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
        for (Started started : executors.values()) {
            try {
                started.close();
            } catch (RuntimeException e) {
                failure = add(failure, e);
            }
        }
        executors.clear();
        try {
            allocator.close();
        } catch (RuntimeException e) {
            failure = add(failure, e);
        }
        for (Path dir : dirs) {
            try {
                Cleanup.deleteTree(dir);
            } catch (IOException e) {
                failure = add(failure, new java.io.UncheckedIOException("removing " + dir + " failed", e));
            }
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
