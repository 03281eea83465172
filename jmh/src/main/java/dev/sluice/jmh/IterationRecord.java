package dev.sluice.jmh;

import dev.sluice.core.device.EmulatedDevice;
import dev.sluice.core.io.IoSnapshot;
import dev.sluice.core.io.ProcSelfIo;
import dev.sluice.core.run.DirtyPages;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What one iteration measured besides its time, handed from the benchmark's iteration state to
 * {@link ShuffleIoProfiler}: JMH gives a benchmark no way to report a per-iteration figure that is averaged over
 * iterations (its {@code @AuxCounters} are summed), so the iteration state records here at its teardown and the
 * profiler, which runs right after, takes it. This is the only channel between them.
 */
final class IterationRecord {
    private static final AtomicReference<IterationRecord> LAST = new AtomicReference<>();

    final int tasks;
    /** Bytes of Arrow input per task, and its batches. */
    final long inputBytes;
    final int batches;
    /** Bytes of the data files (or segment catalogs) the wave committed, over all tasks. */
    final long dataBytes;
    final long waveNanos;
    final long sumTaskNanos;
    final long slowestTaskNanos;
    final long readNanos;
    final IoSnapshot io;
    final Optional<ProcSelfIo> proc;
    final long peakBufferedBytes;
    final long peakDirtyBytes;
    final DirtyPages.Settled gate;
    /** The trial's emulated device, or null on native storage. */
    final EmulatedDevice device;

    IterationRecord(int tasks, long inputBytes, int batches, long dataBytes, long waveNanos, long sumTaskNanos,
                    long slowestTaskNanos, long readNanos, IoSnapshot io, Optional<ProcSelfIo> proc,
                    long peakBufferedBytes, long peakDirtyBytes, DirtyPages.Settled gate, EmulatedDevice device) {
        this.tasks = tasks;
        this.inputBytes = inputBytes;
        this.batches = batches;
        this.dataBytes = dataBytes;
        this.waveNanos = waveNanos;
        this.sumTaskNanos = sumTaskNanos;
        this.slowestTaskNanos = slowestTaskNanos;
        this.readNanos = readNanos;
        this.io = io;
        this.proc = proc;
        this.peakBufferedBytes = peakBufferedBytes;
        this.peakDirtyBytes = peakDirtyBytes;
        this.gate = gate;
        this.device = device;
    }

    static void publish(IterationRecord record) {
        LAST.set(record);
    }

    /** The last iteration's record, once; null if none was published since. */
    static IterationRecord take() {
        return LAST.getAndSet(null);
    }
}
