package dev.sluice.strategy.ideal;

import dev.sluice.spi.memory.HostBuffer;
import dev.sluice.strategy.support.HostBufferPool;

/**
 * The reference's slabs: buffers of one size ({@link IdealWriter#SLAB}) that its writers' compression threads fill
 * and give back at each commit, kept from wave to wave. Which threads take a task's records changes from wave to wave,
 * and each leaves a slab of the task partly filled, so a wave may need a few slabs more than the one before: after each
 * writer the pool holds, idle or out, as many slabs as the executor ever had out at once plus one per compression
 * thread and writer, the missing ones allocated and touched then; a slab taken fresh is touched whole as it is taken, so
 * that a wave after the first faults in nothing.
 */
final class Slabs {
    private final HostBufferPool pool;
    private final int threads;
    private int out;
    private int peakOut;
    private int writers;
    private int peakWriters;

    Slabs(HostBufferPool pool, int threads) {
        this.pool = pool;
        this.threads = threads;
    }

    synchronized void writerOpened() {
        writers++;
        peakWriters = Math.max(peakWriters, writers);
    }

    HostBuffer take() {
        synchronized (this) {
            out++;
            peakOut = Math.max(peakOut, out);
        }
        // A slab is filled in part by one task and further by the next one that takes it: a fresh slab touched only as
        // far as its first task filled it would fault its tail in during a later wave (the page-fault profile of the
        // paired waves found 3,000 to 7,000 such faults a wave at small without compression: docs/limits.md).
        return pool.takeFaultedIn(IdealWriter.SLAB);
    }

    void give(HostBuffer slab) {
        pool.give(slab);
        synchronized (this) {
            out--;
        }
    }

    /** A writer gave back its slabs: the reserve for the next wave is made here, outside any record's compression. */
    void writerDone() {
        int want;
        synchronized (this) {
            writers--;
            want = peakOut + threads * peakWriters - out;
        }
        pool.ensureIdle(IdealWriter.SLAB, want);
    }
}
