package dev.sluice.jmh;

import dev.sluice.core.measure.ProcSelfIo;
import dev.sluice.network.NetworkBoundary;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What one network boundary iteration measured besides its time, handed from {@link BoundaryIteration} to
 * {@link ShuffleIoProfiler} the way {@link IterationRecord} hands a wave's (JMH gives a benchmark no averaged
 * per-iteration figure of its own).
 */
final class NetworkRecord {
    private static final AtomicReference<NetworkRecord> LAST = new AtomicReference<>();

    final NetworkBoundary.Sent sent;
    final long batchesReceived;
    final long rowsReceived;
    final long wireBytesReceived;
    final long sendNanos;
    final long readNanos;
    /** The kernel's counters over the iteration's setup and measured map output (the whole process). */
    final Optional<ProcSelfIo> proc;
    final long inputBytes;

    NetworkRecord(NetworkBoundary.Sent sent, long batchesReceived, long rowsReceived, long wireBytesReceived,
                  long sendNanos, long readNanos, Optional<ProcSelfIo> proc, long inputBytes) {
        this.sent = sent;
        this.batchesReceived = batchesReceived;
        this.rowsReceived = rowsReceived;
        this.wireBytesReceived = wireBytesReceived;
        this.sendNanos = sendNanos;
        this.readNanos = readNanos;
        this.proc = proc;
        this.inputBytes = inputBytes;
    }

    static void publish(NetworkRecord record) {
        LAST.set(record);
    }

    /** The last iteration's record, once; null if none was published since. */
    static NetworkRecord take() {
        return LAST.getAndSet(null);
    }
}
