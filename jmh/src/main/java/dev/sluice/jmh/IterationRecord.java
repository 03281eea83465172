package dev.sluice.jmh;

import dev.sluice.core.device.EmulatedDevice;
import dev.sluice.spi.storage.IoSnapshot;
import dev.sluice.core.measure.ProcSelfIo;
import dev.sluice.core.measure.ProcSelfStat;
import dev.sluice.core.run.DirtyPages;
import dev.sluice.core.run.ReduceRead;
import dev.sluice.core.run.WaveResult;
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
    /**
     * For {@link PairedWaveBenchmark}: which of the trial's strategies wrote the wave (its index in their list) and in
     * which round; -1 for a benchmark of one strategy.
     */
    final int strategyIndex;
    final int round;
    /** The process's CPU time and page faults over the wave, where /proc/self/stat could be read. */
    final Optional<ProcSelfStat> cpu;

    IterationRecord(int tasks, long inputBytes, int batches, long dataBytes, long waveNanos, long sumTaskNanos,
                    long slowestTaskNanos, long readNanos, IoSnapshot io, Optional<ProcSelfIo> proc,
                    Optional<ProcSelfStat> cpu,
                    long peakBufferedBytes, long peakDirtyBytes, DirtyPages.Settled gate, EmulatedDevice device,
                    int strategyIndex, int round) {
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
        this.cpu = cpu;
        this.peakBufferedBytes = peakBufferedBytes;
        this.peakDirtyBytes = peakDirtyBytes;
        this.gate = gate;
        this.device = device;
        this.strategyIndex = strategyIndex;
        this.round = round;
    }

    /** A measured wave of one strategy, the reduce side's read after it, and what the gate did before it. */
    static IterationRecord of(WaveResult wave, ReduceRead.Result read, DirtyPages.Settled gate, EmulatedDevice device) {
        return paired(wave, read, gate, device, -1, -1);
    }

    /** The same for a wave of strategy {@code strategyIndex} of a paired trial, in {@code round}. */
    static IterationRecord paired(WaveResult wave, ReduceRead.Result read, DirtyPages.Settled gate,
                                  EmulatedDevice device, int strategyIndex, int round) {
        return new IterationRecord(wave.tasks.size(), wave.tasks.get(0).input.bytes, wave.tasks.get(0).input.batches,
                wave.outputs().stream().mapToLong(o -> o.totalBytes()).sum(), wave.wallNanos, wave.sumTaskNanos(),
                wave.slowestTaskNanos(), read.nanos, wave.io, wave.proc, wave.cpu, wave.peakBufferedBytes(),
                wave.peakDirtyBytes, gate, device, strategyIndex, round);
    }

    static void publish(IterationRecord record) {
        LAST.set(record);
    }

    /** The last iteration's record, once; null if none was published since. */
    static IterationRecord take() {
        return LAST.getAndSet(null);
    }
}
