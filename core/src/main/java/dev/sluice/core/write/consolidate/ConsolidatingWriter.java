package dev.sluice.core.write.consolidate;

import dev.sluice.core.io.Cleanup;
import dev.sluice.core.io.CountedStorage;
import dev.sluice.core.memory.MemoryBudget;
import dev.sluice.core.output.MapOutput;
import dev.sluice.core.output.MapOutputFiles;
import dev.sluice.core.output.SegmentCatalog;
import dev.sluice.core.partition.ShuffleRecord;
import dev.sluice.core.serde.RecordSerializer;
import dev.sluice.core.write.BoundedPool;
import dev.sluice.core.write.BackgroundWriter;
import dev.sluice.core.write.PendingWork;
import dev.sluice.core.write.WriterConfig;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The write side of spark-rapids' consolidating shuffle writer (PR-13724, "V2 phase 1"), which PR-14090 builds on.
 * The task thread takes memory for each record (an upper bound of compressing it) and hands it to the writer pool,
 * which serializes and compresses it into a buffer of its own and gives back what compression saved. Each batch has a
 * merger that appends its records, in partition order, to the batch's partial handle; batches proceed in parallel.
 * What happens at commit is the subclass's: merge into Spark's data file, or register a segment catalog.
 *
 * <p>One limit covers everything the writer holds (records being compressed, compressed records, partials): memory
 * is charged before it is allocated and never past the limit. When the task thread cannot get memory, it spills the
 * largest in-memory partial; mergers never wait for memory (a partial that cannot grow continues as a file).
 */
public abstract class ConsolidatingWriter extends BackgroundWriter {
    static final long MEMORY_TIMEOUT_MINUTES = 10;
    private static final long MEMORY_POLL_MILLIS = 50;

    protected final WriterConfig config;
    protected final CountedStorage storage;
    protected final MapOutputFiles files;
    protected final RecordSerializer serializer;
    private final BufferAllocator scratch;
    private final ByteBufAllocator buffers;
    private final MemoryBudget memory;
    private final PartialSizing sizing;
    private final BoundedPool compression;
    private final BoundedPool mergers;
    private final List<BatchMerger> batches = new ArrayList<>();
    private BatchMerger current;
    private int lastPartition = -1;

    protected ConsolidatingWriter(WriterContext context, PartialSizing sizing) {
        super(context.strategy + " writer for map " + context.files.mapId(), context.config.partitions);
        this.config = context.config;
        this.storage = context.storage;
        this.files = context.files;
        this.serializer = context.serializer;
        this.scratch = context.scratch;
        this.buffers = context.buffers;
        this.memory = context.memory;
        this.compression = context.compression;
        this.mergers = context.mergers;
        this.sizing = sizing;
    }

    /**
     * Publishes the finished batches, by {@link #mergeIntoDataFile} or {@link #registerSegmentCatalog}: called once
     * every batch has finished, without failure.
     */
    protected abstract MapOutput publish() throws IOException;

    /** PR-13724's commit: merge every batch's partial into Spark's data and index files, then free the partials. */
    protected final MapOutput mergeIntoDataFile() throws IOException {
        MapOutput output = SparkLayoutMerge.write(batches, config.partitions, serializer, storage, files, config.fsync,
                memory, buffers);
        releasePartials();
        return output;
    }

    /**
     * PR-14090's skip-merge commit: register each batch's segments, in batch order, in a catalog that takes over
     * the partials. Nothing is written; storage holds only what memory pressure spilled.
     */
    protected final MapOutput registerSegmentCatalog() {
        SegmentCatalog catalog = new SegmentCatalog(files.shuffleId(), files.mapId(), config.partitions,
                serializer.streamHeader(), serializer.endOfStream());
        for (BatchMerger batch : batches) {
            catalog.own(batch.partial);
            if (!batch.partial.inMemory()) {
                storage.keep(batch.partial.path());
            }
        }
        for (int p = 0; p < config.partitions; p++) {
            for (BatchMerger batch : batches) {
                catalog.add(p, batch.partial, batch.offsets[p], batch.lengths[p]);
            }
        }
        storage.counters().recordCommitted(catalog.totalBytes());
        return catalog;
    }

    private void releasePartials() throws IOException {
        Cleanup cleanup = new Cleanup();
        for (BatchMerger batch : batches) {
            cleanup.run(batch.partial::release);
        }
        cleanup.done();
    }

    /** Takes memory for the record (spilling partials if need be) and hands it to the writer pool. */
    @Override
    protected final void accept(ShuffleRecord record) throws IOException, InterruptedException {
        int partition = record.partitionId();
        if (current == null || partition < lastPartition) {
            startBatch();
        }
        lastPartition = partition;
        long bound = serializer.memoryBound(record.slice());
        takeMemory(bound, partition);
        PendingRecord pendingRecord = new PendingRecord(partition, bound);
        BatchMerger batch = current;
        batch.enqueue(pendingRecord);
        pending.started();
        try {
            compression.submit(() -> compress(record, pendingRecord, batch));
        } catch (InterruptedException | RuntimeException e) {
            // Never compressed: the merger drops it and gives its memory back.
            pendingRecord.complete(null);
            throw e;
        }
    }

    private void startBatch() {
        if (current != null) {
            current.seal();
        }
        PartialHandle partial = new PartialHandle(memory, buffers, storage, files::newTempShuffleFile, sizing);
        current = new BatchMerger(this, partial, config.partitions);
        batches.add(current);
        pending.started();
    }

    /** Waits for {@code bytes} of memory, spilling partials to make room. */
    private void takeMemory(long bytes, int partition) throws IOException, InterruptedException {
        if (bytes > memory.limit()) {
            throw new IOException("a record of partition " + partition + " needs up to " + bytes
                    + " bytes of memory to compress, more than the memory limit of " + memory.limit()
                    + " bytes; raise memory-limit or lower rows-per-batch");
        }
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(MEMORY_TIMEOUT_MINUTES);
        while (!memory.tryReserve(bytes)) {
            throwIfFailed();
            if (spillLargestPartial() > 0) {
                continue;
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("no writer memory came free in " + MEMORY_TIMEOUT_MINUTES + " minutes");
            }
            memory.awaitRelease(MEMORY_POLL_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    private long spillLargestPartial() throws IOException {
        PartialHandle largest = null;
        long most = 0;
        for (BatchMerger batch : batches) {
            long held = batch.partial.memoryHeld();
            if (held > most) {
                most = held;
                largest = batch.partial;
            }
        }
        return largest == null ? 0 : largest.spill();
    }

    /** Runs on the writer pool. */
    private void compress(ShuffleRecord record, PendingRecord pendingRecord, BatchMerger batch) {
        ByteBuf out = null;
        try {
            if (failure() == null) {
                out = serializer.serialize(record.slice(), buffers);
                long kept = out.capacity();
                memory.release(pendingRecord.reserved - kept);
                pendingRecord.reserved = kept;
            }
        } catch (Throwable t) {
            fail(t);
            if (out != null) {
                out.release();
                out = null;
            }
        } finally {
            pendingRecord.complete(out);
            batch.schedule();
        }
    }

    /** The open batch gets no more records: its merger may finish it. */
    @Override
    protected final void beforeDrain() {
        if (current != null) {
            current.seal();
        }
    }

    @Override
    protected final void releaseAfterCommit() {
        scratch.close();
    }

    @Override
    protected final void cleanUp(Throwable cause) {
        try {
            releasePartials();
        } catch (IOException e) {
            cause.addSuppressed(e);
        }
        try {
            scratch.close();
        } catch (RuntimeException e) {
            cause.addSuppressed(e);
        }
    }

    @Override
    protected final void wakeWaiters(Throwable cause) {
        memory.fail(cause);
    }

    @Override
    public final long peakBufferedBytes() {
        return memory.peak();
    }

    final BoundedPool mergers() {
        return mergers;
    }

    final MemoryBudget memory() {
        return memory;
    }

    final PendingWork pendingWork() {
        return pending;
    }

    final void failWith(Throwable cause) {
        fail(cause);
    }

    final Throwable firstFailure() {
        return failure();
    }

    final PartialSizing sizing() {
        return sizing;
    }

    /** Initial capacity of a partial buffer: a fixed start, but never more than an eighth of the memory limit. */
    protected static long initialPartialCapacity(WriterConfig config) {
        return Math.max(64 * 1024, Math.min(WriterContext.INITIAL_PARTIAL, config.memoryLimit / 8));
    }
}
