package dev.sluice.strategy.perbatch;

import dev.sluice.spi.MapOutput;
import dev.sluice.spi.ShuffleRecord;
import dev.sluice.spi.StreamFormat;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.memory.HostAllocator;
import dev.sluice.spi.memory.HostBuffer;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.storage.DataFileCommit;
import dev.sluice.spi.storage.MapOutputFiles;
import dev.sluice.spi.storage.PartitionChecksums;
import dev.sluice.strategy.support.BackgroundWriter;
import dev.sluice.strategy.support.ByteQuota;
import dev.sluice.strategy.support.ChecksumOptions;
import dev.sluice.strategy.support.MemoryBudget;
import dev.sluice.strategy.support.MergeCopy;
import dev.sluice.strategy.support.Slots;
import java.io.IOException;

/**
 * spark-rapids' multithreaded shuffle writer before PR-13724 ({@code RapidsShuffleThreadedWriterBase}, modelled on
 * Spark's {@code BypassMergeSortShuffleWriter}). The task thread takes in-flight quota for each record and hands it
 * to the slot its partition is pinned to; the slot thread serializes and compresses it into that partition's temp
 * file. At commit every temp file is appended, in partition order, to the data file and deleted; then the index is
 * written and both are renamed into place, and the checksum file written. Every committed byte is written twice.
 *
 * <p>As upstream, each partition gets its slot from the executor-wide counter when the map task starts (partition p
 * of a task on slot {@code base + p}), so concurrent tasks spread over the slots.
 */
final class PerBatchWriter extends BackgroundWriter {
    private final WriterConfig config;
    private final PerBatchSettings settings;
    private final CountedStorage storage;
    private final Slots slots;
    private final int firstSlot;
    private final MapOutputFiles files;
    private final HostAllocator allocator;
    private final MemoryBudget memory;
    private final StreamFormat format;
    private final ByteQuota inFlight;
    /** Partition p's file; touched only by p's slot thread until the writer is idle, then by the task thread. */
    private final PartitionFile[] partitionFiles;
    /** Updated by each partition's slot thread as it writes the partition; null without checksums. */
    private final PartitionChecksums checksums;

    PerBatchWriter(WriterConfig config, PerBatchSettings settings, CountedStorage storage, Slots slots,
                   MapOutputFiles files, HostAllocator allocator, MemoryBudget memory, StreamFormat format) {
        super("per-batch writer for map " + files.mapId(), config.partitions);
        this.config = config;
        this.settings = settings;
        this.storage = storage;
        this.slots = slots;
        this.firstSlot = slots.nextSlots(config.partitions);
        this.files = files;
        this.allocator = allocator;
        this.memory = memory;
        this.format = format;
        this.inFlight = new ByteQuota(settings.maxBytesInFlight);
        this.partitionFiles = new PartitionFile[config.partitions];
        this.checksums = ChecksumOptions.checksums(settings.checksum, config.partitions);
    }

    /** Takes in-flight quota for the record and queues it on the slot its partition is pinned to. */
    @Override
    protected void accept(ShuffleRecord record) throws IOException, InterruptedException {
        long quota = inFlight.acquire(record.bytes());
        pending.started();
        try {
            slots.submit(firstSlot + record.partitionId(), new WriteRecord(record, quota));
        } catch (InterruptedException | RuntimeException e) {
            inFlight.release(quota);
            pending.finished();
            throw e;
        }
    }

    /** Runs on the partition's slot thread. */
    private final class WriteRecord implements Slots.SlotTask {
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
                                settings.fileBuffer, checksums == null ? null : checksums.of(p),
                                format.streamHeader());
                    }
                    partitionFiles[p].append(record.payload(), allocator);
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

    @Override
    protected void wakeWaiters(Throwable cause) {
        inFlight.fail(cause);
    }

    @Override
    protected void releaseAfterCommit() {
        allocator.close();
    }

    /** Appends each partition file to the data file in partition order, deleting it, then the index and the renames. */
    @Override
    protected MapOutput publish() throws IOException {
        long[] lengths = new long[partitionFiles.length];
        HostBuffer copyBuffer = settings.mergeCopy == MergeCopy.STREAM ? allocator.buffer(settings.fileBuffer) : null;
        try (DataFileCommit commit = DataFileCommit.begin(storage, files)) {
            for (int p = 0; p < partitionFiles.length; p++) {
                PartitionFile partition = partitionFiles[p];
                if (partition == null) {
                    continue;
                }
                lengths[p] = partition.finish(format.endOfStream());
                if (copyBuffer == null) {
                    partition.transferTo(commit.data(), lengths[p]);
                } else {
                    partition.copyTo(commit.data(), copyBuffer.nioBuffer(0, settings.fileBuffer));
                }
                partition.delete();
                partitionFiles[p] = null;
            }
            return commit.commit(lengths, checksums, config.fsync);
        } finally {
            if (copyBuffer != null) {
                copyBuffer.close();
            }
        }
    }

    @Override
    protected void cleanUp(Throwable cause) {
        PartitionFile.discardAll(partitionFiles, allocator, cause);
    }

    @Override
    public long peakBufferedBytes() {
        return memory.peak();
    }
}
