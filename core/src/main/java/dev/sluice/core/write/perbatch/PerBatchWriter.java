package dev.sluice.core.write.perbatch;

import dev.sluice.core.io.CountedStorage;
import dev.sluice.core.memory.MemoryBudget;
import dev.sluice.core.output.DataFileCommit;
import dev.sluice.core.output.MapOutput;
import dev.sluice.core.output.MapOutputFiles;
import dev.sluice.core.partition.ShuffleRecord;
import dev.sluice.core.serde.RecordSerializer;
import dev.sluice.core.write.ByteQuota;
import dev.sluice.core.write.MergeCopy;
import dev.sluice.core.write.PendingWork;
import dev.sluice.core.write.ShuffleWriter;
import dev.sluice.core.write.WriterConfig;
import java.io.IOException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;

/**
 * spark-rapids' multithreaded shuffle writer before PR-13724 ({@code RapidsShuffleThreadedWriterBase}, modelled on
 * Spark's {@code BypassMergeSortShuffleWriter}). The task thread takes in-flight quota for each record and hands it
 * to the slot its partition is pinned to; the slot thread serializes and compresses it into that partition's temp
 * file. At commit every temp file is appended, in partition order, to the data file and deleted; then the index is
 * written and both are renamed into place. Every committed byte is written twice.
 */
final class PerBatchWriter implements ShuffleWriter {
    /** How long commit waits for queued records to be written. */
    static final long DRAIN_TIMEOUT_MINUTES = 10;
    /** How long abort waits for a record being written before it deletes files anyway. */
    static final long CLEANUP_TIMEOUT_SECONDS = 60;

    private final WriterConfig config;
    private final CountedStorage storage;
    private final WriterSlots slots;
    private final MapOutputFiles files;
    private final BufferAllocator allocator;
    private final MemoryBudget memory;
    private final RecordSerializer serializer;
    private final ByteQuota inFlight;
    private final PendingWork pending = new PendingWork();
    /** Partition p's file; touched only by p's slot thread until the writer is idle, then by the task thread. */
    private final PartitionFile[] partitionFiles;
    private boolean finished;

    PerBatchWriter(WriterConfig config, CountedStorage storage, WriterSlots slots, MapOutputFiles files,
                   BufferAllocator allocator, MemoryBudget memory, RecordSerializer serializer) {
        this.config = config;
        this.storage = storage;
        this.slots = slots;
        this.files = files;
        this.allocator = allocator;
        this.memory = memory;
        this.serializer = serializer;
        this.inFlight = new ByteQuota(config.maxBytesInFlight);
        this.partitionFiles = new PartitionFile[config.partitions];
    }

    @Override
    public void write(ShuffleRecord record) throws IOException, InterruptedException {
        if (finished) {
            throw new IllegalStateException("writer already committed or aborted");
        }
        int partition = record.partitionId();
        if (partition < 0 || partition >= partitionFiles.length) {
            throw new IllegalArgumentException("record for partition " + partition + " of a writer with "
                    + partitionFiles.length + " partitions");
        }
        throwIfFailed();
        long quota = inFlight.acquire(record.bytes());
        pending.started();
        try {
            slots.submit(partition, new WriteRecord(record, quota));
        } catch (InterruptedException | RuntimeException e) {
            inFlight.release(quota);
            pending.finished();
            throw e;
        }
    }

    /** Runs on the partition's slot thread. */
    private final class WriteRecord implements WriterSlots.SlotTask {
        private final ShuffleRecord record;
        private final long quota;

        WriteRecord(ShuffleRecord record, long quota) {
            this.record = record;
            this.quota = quota;
        }

        @Override
        public void run() {
            try {
                if (pending.failure() == null) {
                    int p = record.partitionId();
                    if (partitionFiles[p] == null) {
                        partitionFiles[p] = PartitionFile.create(storage, files.newTempShuffleFile(), allocator,
                                config.bufferSize, serializer.streamHeader());
                    }
                    partitionFiles[p].append(record.slice(), serializer);
                }
            } catch (Throwable t) {
                fail(t);
            } finally {
                inFlight.release(quota);
                pending.finished();
            }
        }

        @Override
        public void cancel(Throwable why) {
            fail(why);
            inFlight.release(quota);
            pending.finished();
        }
    }

    private void fail(Throwable cause) {
        if (pending.fail(cause)) {
            inFlight.fail(cause);
        }
    }

    private void throwIfFailed() throws IOException {
        Throwable failure = pending.failure();
        if (failure != null) {
            throw new IOException("per-batch writer for map " + files.mapId() + " failed", failure);
        }
    }

    @Override
    public MapOutput commit() throws IOException, InterruptedException {
        if (finished) {
            throw new IllegalStateException("writer already committed or aborted");
        }
        try {
            pending.awaitIdle(DRAIN_TIMEOUT_MINUTES, TimeUnit.MINUTES);
            throwIfFailed();
            MapOutput output = writeDataAndIndex();
            finished = true;
            allocator.close();
            return output;
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            abort(e);
            throw e;
        } catch (TimeoutException e) {
            abort(e);
            throw new IOException("per-batch writer for map " + files.mapId() + " timed out at commit", e);
        }
    }

    /** Appends each partition file to the data file in partition order, deleting it, then the index and the renames. */
    private MapOutput writeDataAndIndex() throws IOException {
        long[] lengths = new long[partitionFiles.length];
        ArrowBuf copyBuffer = config.mergeCopy == MergeCopy.STREAM ? allocator.buffer(config.bufferSize) : null;
        try (DataFileCommit commit = DataFileCommit.begin(storage, files)) {
            for (int p = 0; p < partitionFiles.length; p++) {
                PartitionFile partition = partitionFiles[p];
                if (partition == null) {
                    continue;
                }
                lengths[p] = partition.finish(serializer.endOfStream());
                if (copyBuffer == null) {
                    partition.transferTo(commit.data(), lengths[p]);
                } else {
                    partition.copyTo(commit.data(), copyBuffer.nioBuffer(0, config.bufferSize));
                }
                partition.delete();
                partitionFiles[p] = null;
            }
            return commit.commit(lengths, config.fsync);
        } finally {
            if (copyBuffer != null) {
                copyBuffer.close();
            }
        }
    }

    @Override
    public void abort(Throwable cause) {
        if (finished) {
            return;
        }
        finished = true;
        fail(cause);
        if (!pending.awaitIdleForCleanup(CLEANUP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            cause.addSuppressed(new TimeoutException("records still being written after "
                    + CLEANUP_TIMEOUT_SECONDS + " s; deleting their files anyway"));
        }
        for (int p = 0; p < partitionFiles.length; p++) {
            if (partitionFiles[p] != null) {
                try {
                    partitionFiles[p].discard();
                } catch (IOException | RuntimeException e) {
                    cause.addSuppressed(e);
                }
                partitionFiles[p] = null;
            }
        }
        try {
            allocator.close();
        } catch (RuntimeException e) {
            cause.addSuppressed(e);
        }
    }

    @Override
    public long peakBufferedBytes() {
        return memory.peak();
    }

    @Override
    public void close() {
        if (!finished) {
            abort(new CancellationException("writer closed before commit"));
        }
    }
}
