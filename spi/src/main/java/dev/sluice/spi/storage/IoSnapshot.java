package dev.sluice.spi.storage;

import dev.sluice.spi.EngineOnly;
import java.util.Map;

/**
 * Totals of an {@link IoCounters} at one moment, or (from {@link #since}) the difference between two moments.
 * The largest-write figures of a difference are those of the later snapshot: maxima cannot be subtracted.
 */
@EngineOnly
public final class IoSnapshot {
    public final long bytesWritten;
    public final long writeCalls;
    /** Write calls that were file-to-file transfers; included in {@link #writeCalls}. */
    public final long transferCalls;
    public final long largestMemoryWrite;
    public final long largestTransfer;
    private final long[] writeSizeBuckets;
    public final long bytesRead;
    public final long readCalls;
    public final long filesCreated;
    public final long filesDeleted;
    public final long renames;
    public final long fsyncs;
    public final long committedBytes;
    public final long spilledBytes;
    /**
     * Bytes written to {@link FilePurpose#TEMP} files: working files a strategy writes while its task makes the
     * output and deletes before the commit (per-batch's partition files).
     */
    public final long tempBytes;
    /**
     * The most files open at once through the storage (for writing or reading), over the counters' life: like the
     * largest writes, a maximum, which a difference keeps from the later snapshot.
     */
    public final long peakOpenFiles;
    /** Files created as {@link FilePurpose#SPILL}: a spill each, or a partial file. */
    public final long spillFiles;

    IoSnapshot(long bytesWritten, long writeCalls, long transferCalls, long largestMemoryWrite, long largestTransfer,
               long[] writeSizeBuckets, long bytesRead, long readCalls, long filesCreated, long filesDeleted,
               long renames, long fsyncs, long committedBytes, long spilledBytes, long tempBytes,
               long peakOpenFiles, long spillFiles) {
        this.bytesWritten = bytesWritten;
        this.writeCalls = writeCalls;
        this.transferCalls = transferCalls;
        this.largestMemoryWrite = largestMemoryWrite;
        this.largestTransfer = largestTransfer;
        this.writeSizeBuckets = writeSizeBuckets;
        this.bytesRead = bytesRead;
        this.readCalls = readCalls;
        this.filesCreated = filesCreated;
        this.filesDeleted = filesDeleted;
        this.renames = renames;
        this.fsyncs = fsyncs;
        this.committedBytes = committedBytes;
        this.spilledBytes = spilledBytes;
        this.tempBytes = tempBytes;
        this.peakOpenFiles = peakOpenFiles;
        this.spillFiles = spillFiles;
    }

    public IoSnapshot since(IoSnapshot before) {
        long[] buckets = new long[writeSizeBuckets.length];
        for (int i = 0; i < buckets.length; i++) {
            buckets[i] = writeSizeBuckets[i] - before.writeSizeBuckets[i];
        }
        return new IoSnapshot(
                bytesWritten - before.bytesWritten, writeCalls - before.writeCalls,
                transferCalls - before.transferCalls, largestMemoryWrite, largestTransfer, buckets,
                bytesRead - before.bytesRead, readCalls - before.readCalls, filesCreated - before.filesCreated,
                filesDeleted - before.filesDeleted, renames - before.renames, fsyncs - before.fsyncs,
                committedBytes - before.committedBytes, spilledBytes - before.spilledBytes,
                tempBytes - before.tempBytes, peakOpenFiles, spillFiles - before.spillFiles);
    }

    /** Bytes written per committed byte; 1.0 means every committed byte reached storage once. NaN before a commit. */
    public double amplification() {
        return committedBytes == 0 ? Double.NaN : (double) bytesWritten / committedBytes;
    }

    public double meanWriteCallBytes() {
        return writeCalls == 0 ? 0 : (double) bytesWritten / writeCalls;
    }

    /** Non-empty write-size buckets, labelled by their upper bound ({@code "<=32KiB"}), smallest first. */
    public Map<String, Long> writeSizeHistogram() {
        return WriteSizeHistogram.describe(writeSizeBuckets);
    }
}
