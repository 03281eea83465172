package dev.sluice.strategy.consolidating;

import dev.sluice.spi.MapOutput;
import dev.sluice.spi.ShuffleRecord;
import dev.sluice.spi.StreamFormat;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.memory.HostAllocator;
import dev.sluice.spi.memory.HostBuffer;
import dev.sluice.spi.memory.TaskMemory;
import dev.sluice.spi.storage.Cleanup;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.storage.MapOutputFiles;
import dev.sluice.spi.storage.SegmentCatalog;
import dev.sluice.strategy.support.BackgroundWriter;
import dev.sluice.strategy.support.ByteQuota;
import dev.sluice.strategy.support.HostBuffers;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * spark-rapids' consolidating shuffle writer, PR-13724 ("V2 phase 1", {@code writePartitionedGpuBatches} @
 * e465ec3851) and PR-14090 on top of it. The task thread takes in-flight quota for each record (its uncompressed
 * size) and hands it to a writer thread, which serializes and compresses it into a buffer of its own and gives back
 * the quota compression saved. Each batch (a drop in partition id starts one) has a merger that appends its records,
 * in partition order, to the batch's partial handle; batches proceed in parallel. At commit: one batch's partial is
 * the data file (written in one call, or renamed if it went to file); several are merged into it; or, with
 * skip-merge (PR-14090), the partials are registered in a segment catalog and nothing is written.
 */
final class ConsolidatingWriter extends BackgroundWriter implements MergeEvents {
    private final ConsolidatingExecutor executor;
    private final WriterConfig config;
    private final ConsolidatingSettings settings;
    private final CountedStorage storage;
    private final MapOutputFiles files;
    private final StreamFormat format;
    private final HostAllocator scratch;
    private final WriterMemory memory;
    /** The task's memory as the host manages it, which may ask this writer's finished partials to go to file. */
    private final TaskMemory taskMemory;
    private final ByteQuota inFlight;
    private final RecordCompression compression;
    private final List<BatchMerger> batches = new ArrayList<>();
    private BatchMerger current;
    private int lastPartition = -1;

    ConsolidatingWriter(ConsolidatingExecutor executor, MapOutputFiles files, StreamFormat format,
                        TaskMemory taskMemory, HostAllocator scratch) {
        super(executor.strategy() + " writer for map " + files.mapId(), executor.config().partitions);
        this.executor = executor;
        this.config = executor.config();
        this.settings = executor.settings();
        this.storage = executor.storage();
        this.files = files;
        this.format = format;
        this.scratch = scratch;
        this.memory = WriterMemory.create(settings, executor.host(), taskMemory);
        this.taskMemory = taskMemory;
        this.inFlight = new ByteQuota(settings.maxBytesInFlight);
        this.compression = executor.compressionFor(config.partitions);
        taskMemory.spillable(memory::spillForTask);
    }

    /** Takes quota and memory for the record and hands it to a writer thread. */
    @Override
    protected void accept(ShuffleRecord record) throws IOException, InterruptedException {
        int partition = record.partitionId();
        // A lower partition id than the last one starts a new batch (upstream: reducePartitionId < previousMax).
        if (current == null || partition < lastPartition) {
            startBatch();
        }
        lastPartition = partition;
        // The batch's host copy exists from its first record on, whether or not the limiter lets the record in.
        memory.inputArrived(record.inputBatch());
        long quota;
        try {
            quota = inFlight.acquire(record.bytes());
        } catch (IOException | InterruptedException | RuntimeException e) {
            memory.inputSerialized(record.inputBatch());
            throw e;
        }
        long reserved;
        try {
            reserved = memory.acquireRecord(memoryBound(record), this::failure);
        } catch (IOException | InterruptedException | RuntimeException e) {
            inFlight.release(quota);
            memory.inputSerialized(record.inputBatch());
            throw e;
        }
        PendingRecord pendingRecord = new PendingRecord(partition, quota, reserved);
        BatchMerger batch = current;
        batch.enqueue(pendingRecord);
        pending.started();
        Runnable dropped = () -> {
            // Never compressed: the merger drops it and gives back what it holds.
            memory.inputSerialized(record.inputBatch());
            pendingRecord.complete(null);
            batch.recordReady();
        };
        try {
            compression.submit(partition, () -> compress(record, pendingRecord, batch), dropped);
        } catch (InterruptedException | RuntimeException e) {
            dropped.run();
            throw e;
        }
    }

    /**
     * An upper bound of the memory compressing the record needs. A heap record grows by doubling, so it may hold up
     * to twice its size (plus the 32 bytes it starts with); a pooled one holds its buffer's rounded capacity.
     */
    private long memoryBound(ShuffleRecord record) {
        long bound = record.payload().serializedBound();
        if (settings.recordBuffer == Modes.RecordBuffer.HEAP) {
            return 2 * bound + 64;
        }
        // A buffer from the allocator or the pool has the allocator's rounded capacity, which is what it holds.
        return executor.hostRecordBuffers() != null ? executor.hostRecordBuffers().capacityFor(bound) : bound;
    }

    private void startBatch() throws InterruptedException {
        if (current != null) {
            current.seal();
        }
        BatchMerger batch = executor.newMerger(this, executor.newPartial(memory, files), format);
        batches.add(batch);
        current = batch;
        pending.started();
        try {
            batch.start();
        } catch (InterruptedException | RuntimeException e) {
            // The merger will never run: the batch is finished here, empty.
            current = null;
            batchFinished();
            throw e;
        }
    }

    /** Writer thread: serialize and compress, keep the memory that holds the result, give back the rest of the quota. */
    private void compress(ShuffleRecord record, PendingRecord pendingRecord, BatchMerger batch) {
        SerializedRecord out = null;
        try {
            if (failure() == null) {
                out = serialize(record);
                memory.recordSerialized(pendingRecord.reserved, out.memory());
                pendingRecord.reserved = out.memory();
                // Upstream releases recordSize - compressedSize right after compression, the rest once merged.
                long excess = Math.max(0, pendingRecord.quota - out.bytes().remaining());
                inFlight.release(excess);
                pendingRecord.quota -= excess;
            }
        } catch (Throwable t) {
            fail(t);
            if (out != null) {
                out.release();
                out = null;
            }
        } finally {
            // Upstream closes the record's slice once serialized: the last one frees its batch's host copy.
            memory.inputSerialized(record.inputBatch());
            pendingRecord.complete(out);
            batch.recordReady();
        }
    }

    /** Serializes and compresses a record into the buffer {@code recordBuffer} and {@code pool} say. */
    private SerializedRecord serialize(ShuffleRecord record) throws IOException {
        if (settings.recordBuffer == Modes.RecordBuffer.HEAP) {
            return SerializedRecord.heap(record.payload().toHeap(scratch));
        }
        HostBuffers pool = executor.hostRecordBuffers();
        if (pool == null) {
            return SerializedRecord.direct(record.payload(), executor.recordBuffers(), scratch);
        }
        long bound = record.payload().serializedBound();
        HostBuffer buffer = pool.take(bound);
        try {
            int length = record.payload().writeInto(buffer.nioBuffer(0, Math.toIntExact(bound)), scratch);
            return SerializedRecord.pooled(buffer, length, pool);
        } catch (IOException | RuntimeException | Error e) {
            pool.give(buffer);
            throw e;
        }
    }

    @Override
    public void recordMerged(PendingRecord record, boolean adopted) {
        if (!adopted) {
            memory.releaseRecord(record.reserved);
        }
        inFlight.release(record.quota);
        pending.finished();
    }

    @Override
    public void batchFinished() {
        pending.finished();
    }

    /** Background threads (compression, mergers): records the writer's failure. */
    @Override
    public void failWith(Throwable cause) {
        fail(cause);
    }

    @Override
    public Throwable firstFailure() {
        return failure();
    }

    /** The open batch gets no more records: its merger may finish it. */
    @Override
    protected void beforeDrain() {
        if (current != null) {
            current.seal();
        }
        memory.inputEnded();
    }

    @Override
    protected MapOutput publish() throws IOException {
        if (settings.skipMerge) {
            return registerSegmentCatalog();
        }
        MapOutput output = DataFileMerge.write(batches, settings, config, format, storage, files);
        releasePartials();
        return output;
    }

    /**
     * PR-14090's skip-merge commit ({@code storePartialFilesInCatalog} @ c4d50b3624): each batch's segments are
     * registered, in batch order, in a catalog that takes over the partials. Nothing is written; storage holds only
     * what went to file, and commits (and counts as committed) only those files.
     */
    private MapOutput registerSegmentCatalog() throws IOException {
        SegmentCatalog catalog = new SegmentCatalog(files.shuffleId(), files.mapId(), config.partitions,
                format.streamHeader(), format.endOfStream());
        for (BatchMerger batch : batches) {
            catalog.own(batch.partial);
            batch.partial.heldByCommittedOutput();
        }
        for (int p = 0; p < config.partitions; p++) {
            for (BatchMerger batch : batches) {
                catalog.add(p, batch.partial, batch.bodyOffset(p), batch.bodyLength(p));
            }
        }
        return catalog;
    }

    private void releasePartials() throws IOException {
        Cleanup cleanup = new Cleanup();
        for (BatchMerger batch : batches) {
            cleanup.run(batch.partial::release);
        }
        cleanup.done();
    }

    @Override
    protected void releaseAfterCommit() {
        taskMemory.spillable(null);
        memory.releaseInputs();
        scratch.close();
    }

    @Override
    protected void cleanUp(Throwable cause) {
        taskMemory.spillable(null);
        memory.releaseInputs();
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
    protected void wakeWaiters(Throwable cause) {
        inFlight.fail(cause);
    }

    @Override
    public long peakBufferedBytes() {
        return memory.peak();
    }

    @Override
    public long spilledBytes() {
        return memory.spilledBytes();
    }
}
