package dev.sluice.jmh.write;

import dev.sluice.core.run.BenchmarkTerms;
import dev.sluice.spi.Bytes;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.ScalarResult;
import org.openjdk.jmh.results.Result;
import java.util.List;
import java.util.ArrayList;
import dev.sluice.jmh.profile.Figures;
import static dev.sluice.jmh.profile.Figures.avg;
import dev.sluice.core.device.EmulatedDevice;
import dev.sluice.spi.storage.IoSnapshot;
import dev.sluice.core.measure.ProcSelfIo;
import dev.sluice.core.measure.ProcSelfStat;
import dev.sluice.core.run.DirtyPages;
import dev.sluice.core.run.ReduceRead;
import dev.sluice.core.run.WaveResult;
import java.util.Optional;

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

    /** A measured wave of one strategy, the reduce side's read after it, and what the gate did before it. */
    static WaveFigures of(WaveResult wave, ReduceRead.Result read, DirtyPages.Settled gate, EmulatedDevice device) {
        return paired(wave, read, gate, device, -1, -1);
    }

    /** The same for a wave of strategy {@code strategyIndex} of a paired trial, in {@code round}. */
    static WaveFigures paired(WaveResult wave, ReduceRead.Result read, DirtyPages.Settled gate,
                                  EmulatedDevice device, int strategyIndex, int round) {
        return new WaveFigures(wave.tasks.size(), wave.tasks.get(0).input.bytes, wave.tasks.get(0).input.batches,
                wave.outputs().stream().mapToLong(o -> o.totalBytes()).sum(), wave.wallNanos, wave.sumTaskNanos(),
                wave.slowestTaskNanos(), read.nanos, wave.io, wave.proc, wave.cpu, wave.peakBufferedBytes(),
                wave.peakDirtyBytes, gate, device, strategyIndex, round);
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
        out.add(avg("wave.tasks", tasks, "tasks"));
        out.add(avg("wave.inputBytesPerTask", inputBytes, "B"));
        out.add(avg("wave.batchesPerTask", batches, "batches"));
        out.add(avg("wave.dataBytesPerTask", (double) dataBytes / tasks, "B"));
        out.add(avg("wave.sumTaskMillis", sumTaskNanos / 1e6, "ms"));
        out.add(avg("wave.slowestTaskMillis", slowestTaskNanos / 1e6, "ms"));
        out.add(avg("query.readMillis", readNanos / 1e6, "ms"));
        out.add(avg("query.totalMillis", (waveNanos + readNanos) / 1e6, "ms"));
        out.add(avg("io.writeCalls", io.writeCalls * perTask, "calls/task"));
        out.add(avg("io.bytesWritten", io.bytesWritten * perTask, "B/task"));
        out.add(avg("io.committedBytes", io.committedBytes * perTask, "B/task"));
        out.add(avg("io.amplification", io.committedBytes == 0 ? 0 : (double) io.bytesWritten / io.committedBytes,
                "ratio"));
        out.add(avg("io.writeCallsPerMiB", perMiB(io.writeCalls * perTask, committedMiB), "calls/MiB"));
        out.add(avg("io.meanWriteCallBytes", io.meanWriteCallBytes(), "B"));
        out.add(avg("io.filesCreated", io.filesCreated * perTask, "files/task"));
        out.add(avg("io.bytesRead", io.bytesRead * perTask, "B/task"));
        out.add(avg("io.fsyncs", io.fsyncs * perTask, "calls/task"));
        out.add(avg("io.spilledBytes", io.spilledBytes * perTask, "B/task"));
        out.add(new ScalarResult("io.peakBufferedBytes", peakBufferedBytes, "B", AggregationPolicy.MAX));
        if (proc.isPresent()) {
            ProcSelfIo d = proc.get();
            proc(out, "syscw", d.syscw * perTask, "calls", committedMiB);
            proc(out, "wchar", d.wchar * perTask, "B", committedMiB);
            proc(out, "write_bytes", d.writeBytes * perTask, "B", committedMiB);
            proc(out, "cancelled_write_bytes", d.cancelledWriteBytes * perTask, "B", committedMiB);
        } else {
            out.add(avg("proc.available", 0, "bool"));
        }
        if (peakDirtyBytes >= 0) {
            out.add(avg("dirty.peakBytes", peakDirtyBytes, "B"));
        }
        cpu.ifPresent(c -> {
            // The whole process over the wave: where a wave's time goes when it is not the writers' own work.
            out.add(avg("cpu.userMillis", c.userNanos / 1e6, "ms"));
            out.add(avg("cpu.systemMillis", c.systemNanos / 1e6, "ms"));
            out.add(avg("cpu.minorFaults", c.minorFaults, "faults"));
            out.add(avg("cpu.majorFaults", c.majorFaults, "faults"));
        });
        if (device != null) {
            // The emulated device the wave wrote to: the limits the kernel enforced, and one copy's raw write.
            out.add(avg("device.writeMBps", device.figures().writeBytesPerSecond / 1e6, "MB/s"));
            out.add(avg("device.dirtyMB", device.figures().dirtyBytes / 1e6, "MB"));
            out.add(avg("device.iops", device.figures().iops, "ops/s"));
            out.add(avg("device.rawWriteMBps", device.rawWriteMBps(), "MB/s"));
            if (device.figures().taskBytesPerSecond > 0) {
                // The harness's own task rate the bandwidth was set relative to (a balance's device).
                out.add(avg("device.taskRateMBps", device.figures().taskBytesPerSecond / 1e6, "MB/s"));
            }
        }
        if (strategyIndex >= 0) {
            // Which strategy of a paired trial wrote this wave, and in which round: what pairs the waves up.
            out.add(avg(BenchmarkTerms.PAIR_STRATEGY, strategyIndex, "index"));
            out.add(avg(BenchmarkTerms.PAIR_ROUND, round, "round"));
        }
        if (gate != null) {
            out.add(avg("gate.dirtyBytesBefore", gate.before, "B"));
            out.add(avg("gate.dirtyBytesAtStart", gate.after, "B"));
            out.add(avg("gate.waitMillis", gate.waitedNanos / 1e6, "ms"));
            out.add(new ScalarResult("gate.unsettled", gate.settled ? 0 : 1, "iterations", AggregationPolicy.SUM));
        }
        return out;
    }

    private static void proc(List<Result> out, String name, double perTask, String unit, double committedMiB) {
        out.add(avg("proc." + name, perTask, unit + "/task"));
        out.add(avg("proc." + name + "PerMiB", perMiB(perTask, committedMiB), unit + "/MiB"));
    }

    private static double perMiB(double perTask, double committedMiB) {
        return committedMiB == 0 ? 0 : perTask / committedMiB;
    }

}
