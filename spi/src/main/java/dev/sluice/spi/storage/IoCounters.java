package dev.sluice.spi.storage;

import dev.sluice.spi.EngineOnly;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * Everything {@link CountedStorage} observed, as running totals. Thread-safe; read with {@link #snapshot()} and
 * subtract two snapshots for the figures of one map task.
 */
@EngineOnly
public final class IoCounters {
    private final LongAdder bytesWritten = new LongAdder();
    private final LongAdder writeCalls = new LongAdder();
    private final LongAdder transferCalls = new LongAdder();
    private final LongAccumulator largestMemoryWrite = new LongAccumulator(Math::max, 0);
    private final LongAccumulator largestTransfer = new LongAccumulator(Math::max, 0);
    private final WriteSizeHistogram writeSizes = new WriteSizeHistogram();
    private final LongAdder bytesRead = new LongAdder();
    private final LongAdder readCalls = new LongAdder();
    private final LongAdder filesCreated = new LongAdder();
    private final LongAdder spillFiles = new LongAdder();
    private final LongAdder filesDeleted = new LongAdder();
    private final LongAdder renames = new LongAdder();
    private final LongAdder fsyncs = new LongAdder();
    private final LongAdder committedBytes = new LongAdder();
    private final LongAdder spilledBytes = new LongAdder();
    private final LongAdder tempBytes = new LongAdder();
    /** Files open now through the storage, for writing or reading, and the most ever open at once. */
    private final AtomicLong openFiles = new AtomicLong();
    private final LongAccumulator peakOpenFiles = new LongAccumulator(Math::max, 0);
    /** False for {@link #uncounted}: every record is dropped. */
    private final boolean counting;

    public IoCounters() {
        this(true);
    }

    private IoCounters(boolean counting) {
        this.counting = counting;
    }

    /** Counters that record nothing, for {@link CountedStorage#uncounted}: their snapshots stay at zero. */
    static IoCounters uncounted() {
        return new IoCounters(false);
    }

    void recordWrite(long bytes, WriteKind kind) {
        if (!counting) {
            return;
        }
        bytesWritten.add(bytes);
        writeSizes.record(bytes);
        if (kind == WriteKind.TRANSFER) {
            transferCalls.increment();
            largestTransfer.accumulate(bytes);
        } else {
            largestMemoryWrite.accumulate(bytes);
        }
        writeCalls.increment();
    }

    void recordRead(long bytes) {
        if (!counting) {
            return;
        }
        readCalls.increment();
        bytesRead.add(bytes);
    }

    void recordCreate(FilePurpose purpose) {
        if (!counting) {
            return;
        }
        filesCreated.increment();
        if (purpose == FilePurpose.SPILL) {
            spillFiles.increment();
        }
    }

    void recordOpen() {
        if (!counting) {
            return;
        }
        peakOpenFiles.accumulate(openFiles.incrementAndGet());
    }

    void recordClose() {
        if (!counting) {
            return;
        }
        openFiles.decrementAndGet();
    }

    void recordDelete() {
        if (!counting) {
            return;
        }
        filesDeleted.increment();
    }

    void recordRename() {
        if (!counting) {
            return;
        }
        renames.increment();
    }

    void recordFsync() {
        if (!counting) {
            return;
        }
        fsyncs.increment();
    }

    /** Bytes of map output made visible by a commit (data and index files), measured by {@link CountedStorage}. */
    void recordCommitted(long bytes) {
        if (!counting) {
            return;
        }
        committedBytes.add(bytes);
    }

    /** Bytes written to {@link FilePurpose#SPILL} files. */
    void recordSpill(long bytes) {
        if (!counting) {
            return;
        }
        spilledBytes.add(bytes);
    }

    /** Bytes written to {@link FilePurpose#TEMP} files. */
    void recordTemp(long bytes) {
        if (!counting) {
            return;
        }
        tempBytes.add(bytes);
    }

    public IoSnapshot snapshot() {
        return new IoSnapshot(
                bytesWritten.sum(), writeCalls.sum(), transferCalls.sum(),
                largestMemoryWrite.get(), largestTransfer.get(), writeSizes.snapshot(),
                bytesRead.sum(), readCalls.sum(), filesCreated.sum(), filesDeleted.sum(), renames.sum(),
                fsyncs.sum(), committedBytes.sum(), spilledBytes.sum(), tempBytes.sum(), peakOpenFiles.get(), spillFiles.sum());
    }
}
