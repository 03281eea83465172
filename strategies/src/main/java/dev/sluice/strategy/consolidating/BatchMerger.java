package dev.sluice.strategy.consolidating;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The merger of one batch: appends the batch's records to its partial handle strictly in the order they were queued,
 * which is partition order 0..N-1 (a drop in partition id starts a new batch) and FIFO within a partition. A
 * partition is complete once a record of a higher partition follows it, or the batch ends. Each partition present in
 * the batch becomes one complete stream in the partial: header, records, end-of-stream marker, so the partial of a
 * single batch is the data file; a merge of several batches takes each segment's body.
 *
 * <p>How the merger is run is the subclass's: {@link CooperativeMerger} or {@link BlockingMerger}.
 */
abstract class BatchMerger {
    /** The map task's writer, as the merger sees it. */
    protected final MergeEvents writer;
    final PartialHandle partial;
    /** Where each partition's segment (header to end-of-stream marker) starts in the partial, and its length. */
    final long[] offsets;
    final long[] lengths;
    private final ByteBuffer header;
    private final ByteBuffer endOfStream;

    protected final ReentrantLock lock = new ReentrantLock();
    protected final Condition changed = lock.newCondition();
    protected final ArrayDeque<PendingRecord> queue = new ArrayDeque<>();
    protected boolean sealed;
    protected boolean finished;
    private int currentPartition = -1;
    private long currentStart;

    BatchMerger(MergeEvents writer, PartialHandle partial, int partitions, byte[] header, byte[] endOfStream) {
        this.writer = writer;
        this.partial = partial;
        this.offsets = new long[partitions];
        this.lengths = new long[partitions];
        this.header = ByteBuffer.wrap(header).asReadOnlyBuffer();
        this.endOfStream = ByteBuffer.wrap(endOfStream).asReadOnlyBuffer();
    }

    /** Task thread: the batch begins (the blocking merger takes its slot here). */
    abstract void start() throws InterruptedException;

    /** Compression thread (or the task thread, for a record that was never compressed): a record became ready. */
    abstract void recordReady();

    /** Task thread: a record joins the batch. */
    final void enqueue(PendingRecord record) {
        lock.lock();
        try {
            queue.add(record);
        } finally {
            lock.unlock();
        }
    }

    /** Task thread: the batch has all its records. */
    void seal() {
        lock.lock();
        try {
            sealed = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Offset of partition {@code p}'s records in the partial: its segment without the stream header. */
    final long bodyOffset(int p) {
        return offsets[p] + header.remaining();
    }

    /** Bytes of partition {@code p}'s records in this batch (0 if the batch has none). */
    final long bodyLength(int p) {
        return lengths[p] == 0 ? 0 : lengths[p] - header.remaining() - endOfStream.remaining();
    }

    /** Merger thread: appends one ready record, then gives back what it held, whatever happens. */
    protected final void append(PendingRecord record) {
        SerializedRecord bytes = record.serialized();
        boolean adopted = false;
        try {
            if (bytes != null && writer.firstFailure() == null) {
                if (record.partitionId != currentPartition) {
                    completePartition();
                    currentPartition = record.partitionId;
                    partial.partitionStarting(currentPartition);
                    currentStart = partial.size();
                    partial.append(header);
                }
                adopted = partial.appendRecord(bytes);
            }
        } catch (Throwable t) {
            writer.failWith(t);
        } finally {
            if (bytes != null && !adopted) {
                bytes.release();
            }
            writer.recordMerged(record, adopted);
        }
    }

    private void completePartition() throws java.io.IOException {
        if (currentPartition >= 0) {
            partial.append(endOfStream);
            offsets[currentPartition] = currentStart;
            lengths[currentPartition] = partial.size() - currentStart;
        }
    }

    /** Merger thread: the batch is sealed and every record appended. */
    protected final void finishBatch() {
        try {
            if (writer.firstFailure() == null) {
                completePartition();
                partial.finish();
            }
        } catch (Throwable t) {
            writer.failWith(t);
        } finally {
            writer.batchFinished();
        }
    }
}
