package dev.sluice.jmh.write;

import static dev.sluice.jmh.profile.Figures.result;

import dev.sluice.core.device.EmulatedDevice;
import dev.sluice.core.measure.ProcSelfIo;
import dev.sluice.core.measure.ProcSelfStat;
import dev.sluice.core.run.DirtyPages;
import dev.sluice.core.run.Metric;
import dev.sluice.core.run.ReduceRead;
import dev.sluice.core.run.WaveResult;
import dev.sluice.jmh.profile.Figures;
import dev.sluice.spi.Bytes;
import dev.sluice.spi.storage.IoSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.openjdk.jmh.results.Result;

/**
 * What one iteration measured besides its time, handed from the benchmark's iteration state to
 * {@link ShuffleIoProfiler}: JMH gives a benchmark no way to report a per-iteration figure that is averaged over
 * iterations (its {@code @AuxCounters} are summed), so the iteration state records here at its teardown and the
 * profiler, which runs right after, takes it. This is the only channel between them.
 */
public final class WaveFigures implements Figures {
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
    /** What a fluid disk of the device's figures takes for the same writes, ms; NaN where not modelled. */
    private double fluidMillis = Double.NaN;
    /** The share of the bytes written at commit (WaveResult's atCommitShare); NaN where a wave has no commit. */
    private double atCommitShare = Double.NaN;
    /** The CPU everything but this process took over the wave (WaveResult's othersCpuMillis); NaN where unread. */
    private double othersCpuMillis = Double.NaN;
    /** The process's CPU time and page faults over the wave, where /proc/self/stat could be read. */
    final Optional<ProcSelfStat> cpu;

    WaveFigures(int tasks, long inputBytes, int batches, long dataBytes, long waveNanos, long sumTaskNanos,
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

    /** These figures with the fluid model's time for the same writes (a raw or paced write on an emulated device). */
    WaveFigures fluid(double millis) {
        fluidMillis = millis;
        return this;
    }

    /** A measured wave of one strategy, the reduce side's read after it, and what the gate did before it. */
    static WaveFigures of(WaveResult wave, ReduceRead.Result read, DirtyPages.Settled gate, EmulatedDevice device) {
        return paired(wave, read, gate, device, -1, -1);
    }

    /** The same for a wave of strategy {@code strategyIndex} of a paired trial, in {@code round}. */
    static WaveFigures paired(WaveResult wave, ReduceRead.Result read, DirtyPages.Settled gate,
                                  EmulatedDevice device, int strategyIndex, int round) {
        WaveFigures figures = new WaveFigures(wave.tasks.size(), wave.tasks.get(0).input.bytes,
                wave.tasks.get(0).input.batches, wave.outputs().stream().mapToLong(o -> o.totalBytes()).sum(),
                wave.wallNanos, wave.sumTaskNanos(), wave.slowestTaskNanos(), read.nanos, wave.io, wave.proc, wave.cpu,
                wave.peakBufferedBytes(), wave.peakDirtyBytes, gate, device, strategyIndex, round);
        figures.atCommitShare = wave.atCommitShare();
        figures.othersCpuMillis = wave.othersCpuMillis();
        return figures;
    }

    /**
     * The wave: {@code wave.*}; the seed report's tables; the counted I/O per task ({@code io.*}); the kernel's
     * ({@code proc.*}, {@code cpu.*}); the page cache and the gate; an emulated device's limits; a paired wave's
     * strategy and round. Averaged over iterations but for {@code io.peakBufferedBytes} (the most) and
     * {@code gate.unsettled} (counted).
     */
    @Override
    public List<Result> results() {
        if (tasks <= 0) {
            return List.of();
        }
        double perTask = 1.0 / tasks;
        double committedMiB = (double) io.committedBytes / tasks / Bytes.MiB;
        List<Result> out = new ArrayList<>();
        out.add(result(Metric.WAVE_TASKS, tasks));
        out.add(result(Metric.WAVE_INPUT_BYTES_PER_TASK, inputBytes));
        out.add(result(Metric.WAVE_BATCHES_PER_TASK, batches));
        out.add(result(Metric.WAVE_DATA_BYTES_PER_TASK, (double) dataBytes / tasks));
        out.add(result(Metric.WAVE_SUM_TASK_MILLIS, sumTaskNanos / 1e6));
        out.add(result(Metric.WAVE_SLOWEST_TASK_MILLIS, slowestTaskNanos / 1e6));
        out.add(result(Metric.QUERY_READ_MILLIS, readNanos / 1e6));
        out.add(result(Metric.QUERY_TOTAL_MILLIS, (waveNanos + readNanos) / 1e6));
        out.add(result(Metric.IO_WRITE_CALLS, io.writeCalls * perTask));
        out.add(result(Metric.IO_BYTES_WRITTEN, io.bytesWritten * perTask));
        out.add(result(Metric.IO_COMMITTED_BYTES, io.committedBytes * perTask));
        out.add(result(Metric.IO_AMPLIFICATION,
                io.committedBytes == 0 ? 0 : (double) io.bytesWritten / io.committedBytes));
        if (Double.isFinite(atCommitShare)) {
            out.add(result(Metric.IO_AT_COMMIT_SHARE, atCommitShare));
        }
        out.add(result(Metric.IO_WRITE_CALLS_PER_MIB, perMiB(io.writeCalls * perTask, committedMiB)));
        out.add(result(Metric.IO_MEAN_WRITE_CALL_BYTES, io.meanWriteCallBytes()));
        out.add(result(Metric.IO_FILES_CREATED, io.filesCreated * perTask));
        out.add(result(Metric.IO_PEAK_OPEN_FILES, io.peakOpenFiles));
        out.add(result(Metric.IO_BYTES_READ, io.bytesRead * perTask));
        out.add(result(Metric.IO_FSYNCS, io.fsyncs * perTask));
        out.add(result(Metric.IO_SPILLED_BYTES, io.spilledBytes * perTask));
        out.add(result(Metric.IO_SPILL_FILES, io.spillFiles * perTask));
        out.add(result(Metric.IO_PEAK_BUFFERED_BYTES, peakBufferedBytes));
        if (proc.isPresent()) {
            ProcSelfIo d = proc.get();
            proc(out, Metric.PROC_SYSCW, Metric.PROC_SYSCW_PER_MIB, d.syscw * perTask, committedMiB);
            proc(out, Metric.PROC_WCHAR, Metric.PROC_WCHAR_PER_MIB, d.wchar * perTask, committedMiB);
            proc(out, Metric.PROC_WRITE_BYTES, Metric.PROC_WRITE_BYTES_PER_MIB, d.writeBytes * perTask, committedMiB);
            proc(out, Metric.PROC_CANCELLED_WRITE_BYTES, Metric.PROC_CANCELLED_WRITE_BYTES_PER_MIB,
                    d.cancelledWriteBytes * perTask, committedMiB);
        } else {
            out.add(result(Metric.PROC_AVAILABLE, 0));
        }
        if (peakDirtyBytes >= 0) {
            out.add(result(Metric.DIRTY_PEAK_BYTES, peakDirtyBytes));
        }
        cpu.ifPresent(c -> {
            // The whole process over the wave: where a wave's time goes when it is not the writers' own work.
            out.add(result(Metric.CPU_USER_MILLIS, c.userNanos / 1e6));
            out.add(result(Metric.CPU_SYSTEM_MILLIS, c.systemNanos / 1e6));
            if (Double.isFinite(othersCpuMillis)) {
                out.add(result(Metric.CPU_OTHERS_MILLIS, othersCpuMillis));
            }
            out.add(result(Metric.CPU_MINOR_FAULTS, c.minorFaults));
            out.add(result(Metric.CPU_MAJOR_FAULTS, c.majorFaults));
            if (c.compilationNanos >= 0) {
                // The JIT compilers' time in the wave, on the cores the wave needs (docs/limits.md).
                out.add(result(Metric.JIT_COMPILATION_MILLIS, c.compilationNanos / 1e6));
            }
        });
        if (device != null) {
            // The emulated device the wave wrote to: the limits the kernel enforced, and one copy's raw write.
            out.add(result(Metric.DEVICE_WRITE_MBPS, device.figures().writeBytesPerSecond / 1e6));
            out.add(result(Metric.DEVICE_DIRTY_MB, device.figures().dirtyBytes / 1e6));
            out.add(result(Metric.DEVICE_IOPS, device.figures().iops));
            out.add(result(Metric.DEVICE_RAW_WRITE_MBPS, device.rawWriteMBps()));
            if (device.figures().taskBytesPerSecond > 0) {
                // The harness's own task rate the bandwidth was set relative to (a balance's device).
                out.add(result(Metric.DEVICE_TASK_RATE_MBPS, device.figures().taskBytesPerSecond / 1e6));
            }
            if (Double.isFinite(fluidMillis)) {
                // The device's physics beside what it measured (docs/balance.md, "A disk that behaves like a disk").
                out.add(result(Metric.DEVICE_FLUID_MILLIS, fluidMillis));
            }
        }
        if (strategyIndex >= 0) {
            // Which strategy of a paired trial wrote this wave, and in which round: what pairs the waves up.
            out.add(result(Metric.PAIR_STRATEGY, strategyIndex));
            out.add(result(Metric.PAIR_ROUND, round));
        }
        if (gate != null) {
            out.add(result(Metric.GATE_DIRTY_BYTES_BEFORE, gate.before));
            out.add(result(Metric.GATE_DIRTY_BYTES_AT_START, gate.after));
            out.add(result(Metric.GATE_WAIT_MILLIS, gate.waitedNanos / 1e6));
            out.add(result(Metric.GATE_UNSETTLED, gate.settled ? 0 : 1));
        }
        return out;
    }

    private static void proc(List<Result> out, Metric perTaskMetric, Metric perMiBMetric, double perTask,
                             double committedMiB) {
        out.add(result(perTaskMetric, perTask));
        out.add(result(perMiBMetric, perMiB(perTask, committedMiB)));
    }

    private static double perMiB(double perTask, double committedMiB) {
        return committedMiB == 0 ? 0 : perTask / committedMiB;
    }

}
