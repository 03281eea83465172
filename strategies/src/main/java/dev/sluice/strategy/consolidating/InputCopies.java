package dev.sluice.strategy.consolidating;

import dev.sluice.spi.InputBatch;
import dev.sluice.strategy.support.MemoryBudget;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The host copies of one map task's input batches, as {@code HostAlloc} counts them: a batch is charged to the
 * executor's host memory when its first record reaches the writer, and given back once every record of it has been
 * serialized (or dropped) and the batch has ended (a record of another batch arrived, or the task has no more). Upstream
 * frees a batch's host copy when its last slice is closed after serialization ({@code withResource(cb)} in the
 * compression task of {@code writePartitionedGpuBatches}, RapidsShuffleInternalManagerBase.scala @ e465ec3851).
 * Upstream's allocation of the copy spills finished partials to make room and otherwise waits for memory; here the
 * copy exists already, so after making what room it can the charge is made whatever the limit, and use past the limit
 * then sends partials to file.
 */
final class InputCopies {
    private final MemoryBudget host;
    /** Records of each charged batch not yet serialized. */
    private final Map<InputBatch, int[]> unserialized = new IdentityHashMap<>();
    private InputBatch current;

    InputCopies(MemoryBudget host) {
        this.host = host;
    }

    /**
     * Task thread: a record of {@code batch} arrived. Returns the bytes the caller must now charge with
     * {@link #charge} (the batch's host copy, the first time it is seen), else 0. Until this record is serialized the
     * batch cannot be given back, so the charge may come after this returns.
     */
    synchronized long arrived(InputBatch batch) {
        if (batch != current) {
            end();
            current = batch;
        }
        int[] count = unserialized.get(batch);
        long charge = 0;
        if (count == null) {
            count = new int[1];
            unserialized.put(batch, count);
            charge = batch.hostBytes();
        }
        count[0]++;
        return charge;
    }

    /** Counts {@code bytes} of a batch's host copy, whatever the limit: the copy exists. */
    void charge(long bytes) {
        host.reserve(bytes);
    }

    /** Writer thread (or the task thread for a dropped record): a record of {@code batch} no longer needs its rows. */
    synchronized void serialized(InputBatch batch) {
        int[] count = unserialized.get(batch);
        if (count == null) {
            return; // given back already, with everything, when the writer failed
        }
        if (--count[0] == 0 && batch != current) {
            release(batch);
        }
    }

    /** Task thread: no more records of the current batch. */
    synchronized void end() {
        InputBatch ending = current;
        current = null;
        if (ending != null) {
            int[] count = unserialized.get(ending);
            if (count != null && count[0] == 0) {
                release(ending);
            }
        }
    }

    /** Gives back every batch still charged (the writer is done, whatever happened). */
    synchronized void releaseAll() {
        current = null;
        for (InputBatch batch : unserialized.keySet()) {
            host.release(batch.hostBytes());
        }
        unserialized.clear();
    }

    private void release(InputBatch batch) {
        unserialized.remove(batch);
        host.release(batch.hostBytes());
    }
}
