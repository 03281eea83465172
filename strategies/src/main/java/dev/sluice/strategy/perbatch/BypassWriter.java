package dev.sluice.strategy.perbatch;

import dev.sluice.spi.MapOutput;
import dev.sluice.spi.ShuffleRecord;
import dev.sluice.spi.StreamFormat;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.memory.HostAllocator;
import dev.sluice.spi.memory.HostBuffer;
import dev.sluice.spi.storage.ChecksumAlgorithm;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.storage.DataFileCommit;
import dev.sluice.spi.storage.MapOutputFiles;
import dev.sluice.spi.storage.PartitionChecksums;
import dev.sluice.strategy.support.BackgroundWriter;
import dev.sluice.strategy.support.BufferedFileChannel;
import dev.sluice.strategy.support.ChecksumOptions;
import dev.sluice.strategy.support.MemoryBudget;
import dev.sluice.strategy.support.MergeCopy;
import java.io.IOException;

/**
 * Spark's {@code BypassMergeSortShuffleWriter} (Spark 4.1.1), on the task thread: each record is written to its
 * partition's temp file ({@code DiskBlockObjectWriter}, opened on the partition's first record, behind a
 * {@code spark.shuffle.file.buffer} buffer); at commit every temp file is appended to the data file in partition
 * order and deleted ({@code writePartitionedData}), then the index, the renames and the checksum file. A map task
 * with no records commits an empty output without checksums, as Spark's does.
 */
final class BypassWriter extends BackgroundWriter {
    /** {@code Utils.copyStream}'s buffer: what a stream copy reads at a time. */
    private static final int STREAM_COPY_READ = 8192;

    private final WriterConfig config;
    private final CountedStorage storage;
    private final MapOutputFiles files;
    private final StreamFormat format;
    private final HostAllocator allocator;
    private final MemoryBudget memory;
    private final int fileBuffer;
    private final MergeCopy mergeCopy;
    private final PartitionFile[] partitionFiles;
    private final PartitionChecksums checksums;
    private boolean anyRecord;

    BypassWriter(WriterConfig config, CountedStorage storage, MapOutputFiles files, StreamFormat format,
                 HostAllocator allocator, MemoryBudget memory, int fileBuffer, MergeCopy mergeCopy,
                 ChecksumAlgorithm checksum) {
        super("bypass writer for map " + files.mapId(), config.partitions);
        this.config = config;
        this.storage = storage;
        this.files = files;
        this.format = format;
        this.allocator = allocator;
        this.memory = memory;
        this.fileBuffer = fileBuffer;
        this.mergeCopy = mergeCopy;
        this.partitionFiles = new PartitionFile[config.partitions];
        this.checksums = ChecksumOptions.checksums(checksum, config.partitions);
    }

    /** {@code partitionWriters[partitionId].write(key, value)}, on the task thread. */
    @Override
    protected void accept(ShuffleRecord record) throws IOException {
        anyRecord = true;
        int p = record.partitionId();
        if (partitionFiles[p] == null) {
            partitionFiles[p] = PartitionFile.create(storage, files.newTempShuffleFile(), allocator, fileBuffer,
                    checksums == null ? null : checksums.of(p), format.streamHeader());
        }
        partitionFiles[p].append(record.payload(), allocator);
    }

    @Override
    protected void wakeWaiters(Throwable cause) {
        // Nothing waits: the task thread does all the work.
    }

    @Override
    protected void releaseAfterCommit() {
        allocator.close();
    }

    /**
     * {@code writePartitionedData}: each partition's file finished, appended and deleted in turn; by a kernel copy, or
     * read 8 KiB at a time into the data file's {@code spark.shuffle.unsafe.file.output.buffer} (here the file
     * buffer, both 32k by default), which is flushed once, at the end.
     */
    @Override
    protected MapOutput publish() throws IOException {
        long[] lengths = new long[partitionFiles.length];
        HostBuffer readBuffer = mergeCopy == MergeCopy.STREAM ? allocator.buffer(STREAM_COPY_READ) : null;
        HostBuffer outputBuffer = mergeCopy == MergeCopy.STREAM ? allocator.buffer(fileBuffer) : null;
        try (DataFileCommit commit = DataFileCommit.begin(storage, files)) {
            BufferedFileChannel stream = outputBuffer == null ? null
                    : new BufferedFileChannel(commit.data(), outputBuffer.nioBuffer(0, fileBuffer));
            for (int p = 0; p < partitionFiles.length; p++) {
                PartitionFile partition = partitionFiles[p];
                if (partition == null) {
                    continue;
                }
                lengths[p] = partition.finish(format.endOfStream());
                if (stream == null) {
                    partition.transferTo(commit.data(), lengths[p]);
                } else {
                    partition.copyTo(stream, readBuffer.nioBuffer(0, STREAM_COPY_READ));
                }
                partition.delete();
                partitionFiles[p] = null;
            }
            if (stream != null) {
                stream.flush();
            }
            // An empty map task: Spark commits ShuffleChecksumHelper.EMPTY_CHECKSUM_VALUE, no checksum file.
            return commit.commit(lengths, anyRecord ? checksums : null, config.fsync);
        } finally {
            if (readBuffer != null) {
                readBuffer.close();
            }
            if (outputBuffer != null) {
                outputBuffer.close();
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
