package dev.sluice.strategy.ideal;

import dev.sluice.spi.memory.HostBuffer;
import dev.sluice.strategy.support.HostBufferPool;

/**
 * The reference's slabs: buffers of one size ({@link IdealWriter#SLAB}) that its writers' compression threads fill
 * and give back at each commit, kept from wave to wave. Which threads take a task's records changes from wave to wave,
 * and each leaves a slab of the task partly filled; and whether a wave's tasks hold their slabs at the same time depends
 * on when each commits. So after each writer the pool holds, idle or out, enough slabs for every writer the executor
 * ever had open at once to take as many as a writer of the same bytes can ({@link #writerDone}), the missing ones
 * allocated and touched then; a slab taken fresh is touched whole as it is taken. A wave after the first then faults
 * in nothing. (Sized by the slabs out at once, as before, the reserve fell short whenever a wave's tasks overlapped more
 * than the first wave's had: at xxlarge a page-fault profile found up to six slabs taken fresh and four more made after
 * the commit inside measured waves, 41,000 faults and half again the wave's time; docs/limits.md.)
 */
final class Slabs {
    private final HostBufferPool pool;
    private final int threads;
    private int out;
    private int peakOut;
    private int writers;
    private int peakWriters;
    /** The slabs per writer the reserve is made for ({@link #writerDone}). */
    private int perWriter;

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

    /**
     * A writer that took {@code taken} slabs gave them back: the reserve for the next wave is made here, outside any
     * record's compression.
     */
    void writerDone(int taken) {
        int want;
        synchronized (this) {
            writers--;
            // A writer's slabs are the ones its records filled and one partly filled slab per compression thread that
            // took any of them: a writer that took n slabs filled at most n - 1, and one with the same bytes takes at
            // most n - 1 + threads. The reserve is made for every writer open at once taking that many, so that only
            // more bytes make it grow again, not records falling to the threads differently (which would make it grow
            // inside a measured wave).
            if (taken > perWriter) {
                perWriter = taken - 1 + threads;
            }
            want = Math.max(peakOut, peakWriters * perWriter) - out;
        }
        pool.ensureIdle(IdealWriter.SLAB, want);
    }

}
