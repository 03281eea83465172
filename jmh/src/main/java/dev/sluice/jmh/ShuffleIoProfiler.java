package dev.sluice.jmh;

import dev.sluice.spi.Bytes;
import dev.sluice.spi.storage.IoSnapshot;
import dev.sluice.core.measure.ProcSelfIo;
import dev.sluice.core.run.BenchmarkTerms;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * {@code -prof dev.sluice.jmh.ShuffleIoProfiler} (added by {@link SluiceBenchmarks} unless given): each iteration's
 * figures besides its time, as secondary results (under {@code secondaryMetrics} in {@code -rf json}), averaged over
 * iterations unless they say otherwise.
 *
 * <p>The wave: {@code wave.tasks}, {@code wave.inputBytesPerTask}, {@code wave.batchesPerTask},
 * {@code wave.dataBytesPerTask} (bytes of the data file, or segment catalog, per task). The seed report's
 * tables: {@code wave.sumTaskMillis} (sum of the map task durations), {@code wave.slowestTaskMillis},
 * {@code query.readMillis} (the reduce-side read of every partition), {@code query.totalMillis} (the wave plus that
 * read). Per map task: {@code io.writeCalls}, {@code io.bytesWritten}, {@code io.committedBytes},
 * {@code io.filesCreated}, {@code io.bytesRead}, {@code io.fsyncs}, {@code io.spilledBytes}; ratios:
 * {@code io.amplification} (bytes written / committed), {@code io.writeCallsPerMiB} (per MiB committed),
 * {@code io.meanWriteCallBytes}; {@code io.peakBufferedBytes} (the most any writer held, maximum over iterations);
 * the kernel's {@code proc.syscw}, {@code proc.wchar}, {@code proc.write_bytes}, {@code proc.cancelled_write_bytes}
 * per task and per MiB committed ({@code proc.<name>PerMiB}); the process's CPU time and page faults over the wave
 * from {@code /proc/self/stat}: {@code cpu.userMillis}, {@code cpu.systemMillis}, {@code cpu.minorFaults},
 * {@code cpu.majorFaults}. The page cache: {@code dirty.peakBytes} (the highest
 * Dirty during the wave), {@code gate.dirtyBytesBefore} (Dirty + Writeback when the iteration's setup began),
 * {@code gate.dirtyBytesAtStart} (when the wave started, after the flush), {@code gate.waitMillis},
 * {@code gate.unsettled} (1 where the bounded wait ran out). A {@link PairedWaveBenchmark} wave also has
 * {@code pair.strategy} (the index of its strategy in the trial's list) and {@code pair.round}.
 */
public final class ShuffleIoProfiler implements InternalProfiler {

    @Override
    public String getDescription() {
        return "Sluice: task durations, the reduce-side read, write calls, bytes, amplification, files, memory, "
                + "/proc/self/io and the page cache's dirty data per wave";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        IterationRecord.take();
        NetworkRecord.take();
        GpuRecord.take();
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                       IterationResult result) {
        NetworkRecord network = NetworkRecord.take();
        if (network != null) {
            return network(network);
        }
        GpuRecord gpu = GpuRecord.take();
        if (gpu != null) {
            return gpu(gpu);
        }
        IterationRecord r = IterationRecord.take();
        if (r == null || r.tasks <= 0) {
            return Collections.emptyList();
        }
        IoSnapshot io = r.io;
        double perTask = 1.0 / r.tasks;
        double committedMiB = (double) io.committedBytes / r.tasks / Bytes.MiB;
        List<Result> out = new ArrayList<>();
        out.add(avg("wave.tasks", r.tasks, "tasks"));
        out.add(avg("wave.inputBytesPerTask", r.inputBytes, "B"));
        out.add(avg("wave.batchesPerTask", r.batches, "batches"));
        out.add(avg("wave.dataBytesPerTask", (double) r.dataBytes / r.tasks, "B"));
        out.add(avg("wave.sumTaskMillis", r.sumTaskNanos / 1e6, "ms"));
        out.add(avg("wave.slowestTaskMillis", r.slowestTaskNanos / 1e6, "ms"));
        out.add(avg("query.readMillis", r.readNanos / 1e6, "ms"));
        out.add(avg("query.totalMillis", (r.waveNanos + r.readNanos) / 1e6, "ms"));
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
        out.add(new ScalarResult("io.peakBufferedBytes", r.peakBufferedBytes, "B", AggregationPolicy.MAX));
        if (r.proc.isPresent()) {
            ProcSelfIo d = r.proc.get();
            proc(out, "syscw", d.syscw * perTask, "calls", committedMiB);
            proc(out, "wchar", d.wchar * perTask, "B", committedMiB);
            proc(out, "write_bytes", d.writeBytes * perTask, "B", committedMiB);
            proc(out, "cancelled_write_bytes", d.cancelledWriteBytes * perTask, "B", committedMiB);
        } else {
            out.add(avg("proc.available", 0, "bool"));
        }
        if (r.peakDirtyBytes >= 0) {
            out.add(avg("dirty.peakBytes", r.peakDirtyBytes, "B"));
        }
        r.cpu.ifPresent(cpu -> {
            // The whole process over the wave: where a wave's time goes when it is not the writers' own work.
            out.add(avg("cpu.userMillis", cpu.userNanos / 1e6, "ms"));
            out.add(avg("cpu.systemMillis", cpu.systemNanos / 1e6, "ms"));
            out.add(avg("cpu.minorFaults", cpu.minorFaults, "faults"));
            out.add(avg("cpu.majorFaults", cpu.majorFaults, "faults"));
        });
        if (r.device != null) {
            // The emulated device the wave wrote to: the limits the kernel enforced, and one copy's raw write.
            out.add(avg("device.writeMBps", r.device.figures().writeBytesPerSecond / 1e6, "MB/s"));
            out.add(avg("device.dirtyMB", r.device.figures().dirtyBytes / 1e6, "MB"));
            out.add(avg("device.iops", r.device.figures().iops, "ops/s"));
            out.add(avg("device.rawWriteMBps", r.device.rawWriteMBps(), "MB/s"));
        }
        if (r.strategyIndex >= 0) {
            // Which strategy of a paired trial wrote this wave, and in which round: what pairs the waves up.
            out.add(avg(BenchmarkTerms.PAIR_STRATEGY, r.strategyIndex, "index"));
            out.add(avg(BenchmarkTerms.PAIR_ROUND, r.round, "round"));
        }
        if (r.gate != null) {
            out.add(avg("gate.dirtyBytesBefore", r.gate.before, "B"));
            out.add(avg("gate.dirtyBytesAtStart", r.gate.after, "B"));
            out.add(avg("gate.waitMillis", r.gate.waitedNanos / 1e6, "ms"));
            out.add(new ScalarResult("gate.unsettled", r.gate.settled ? 0 : 1, "iterations", AggregationPolicy.SUM));
        }
        return out;
    }

    /** A network boundary iteration's figures: what the sender sent and copied, what the receiver got. */
    private static List<Result> network(NetworkRecord r) {
        List<Result> out = new ArrayList<>();
        double wireMiB = (double) r.sent.wireBytes / Bytes.MiB;
        out.add(avg("net.inputBytes", r.inputBytes, "B"));
        out.add(avg("net.messages", r.sent.messages, "messages"));
        out.add(avg("net.wireBytes", r.sent.wireBytes, "B"));
        out.add(avg("net.meanMessageBytes", r.sent.messages == 0 ? 0 : (double) r.sent.wireBytes / r.sent.messages,
                "B"));
        out.add(avg("net.bytesCopied", r.sent.bytesCopied(), "B"));
        out.add(avg("net.coalescedBytes", r.sent.coalescedBytes, "B"));
        out.add(avg("net.serializedBytes", r.sent.serializedBytes, "B"));
        out.add(avg("net.batchesReceived", r.batchesReceived, "batches"));
        out.add(avg("net.meanBatchRows", r.batchesReceived == 0 ? 0 : (double) r.rowsReceived / r.batchesReceived,
                "rows"));
        out.add(avg("net.sendMillis", r.sendNanos / 1e6, "ms"));
        out.add(avg("query.readMillis", r.readNanos / 1e6, "ms"));
        out.add(avg("query.totalMillis", (r.sendNanos + r.readNanos) / 1e6, "ms"));
        if (r.proc.isPresent()) {
            ProcSelfIo d = r.proc.get();
            out.add(avg("proc.syscw", d.syscw, "calls"));
            out.add(avg("proc.syscwPerMiB", wireMiB == 0 ? 0 : d.syscw / wireMiB, "calls/MiB"));
            out.add(avg("proc.syscr", d.syscr, "calls"));
            out.add(avg("proc.wchar", d.wchar, "B"));
        } else {
            out.add(avg("proc.available", 0, "bool"));
        }
        return out;
    }

    /**
     * A GPU experiment iteration's figures: the task's time and the JVM's CPU time over it, its output's bytes (and,
     * for kudo and JCudfSerialization, the records' bytes before compression) and storage I/O on every path; on the
     * device also the partition and copy times, the copy's GB/s, and how many host buffers were really pinned.
     */
    private static List<Result> gpu(GpuRecord r) {
        List<Result> out = new ArrayList<>();
        out.add(avg("task.millis", r.taskNanos / 1e6, "ms"));
        if (r.cpuNanos >= 0) {
            out.add(avg("task.cpuMillis", r.cpuNanos / 1e6, "ms"));
        }
        out.add(avg("task.inputBytes", r.inputBytes, "B"));
        out.add(avg("task.rows", r.rows, "rows"));
        out.add(avg("task.dataBytes", r.dataBytes, "B"));
        if (r.serializedBytes >= 0) {
            out.add(avg("task.serializedBytes", r.serializedBytes, "B"));
        }
        out.add(avg("io.bytesWritten", r.io.bytesWritten, "B"));
        out.add(avg("io.writeCalls", r.io.writeCalls, "calls"));
        out.add(avg("io.committedBytes", r.io.committedBytes, "B"));
        if (r.gpu) {
            out.add(avg("gpu.batches", r.times.batches(), "batches"));
            out.add(avg("gpu.partitionMillis", r.times.partitionNanos() / 1e6, "ms"));
            out.add(avg("gpu.copyMillis", r.times.copyNanos() / 1e6, "ms"));
            out.add(avg("gpu.copyBytes", r.times.copyBytes(), "B"));
            out.add(avg("gpu.copyGBps", r.times.copyGigabytesPerSecond(), "GB/s"));
            out.add(avg("gpu.hostBuffers", r.host.buffers, "buffers"));
            out.add(avg("gpu.pinnedBuffers", r.host.pinnedBuffers, "buffers"));
            out.add(avg("gpu.pinnedBytes", r.host.pinnedBytes, "B"));
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

    private static ScalarResult avg(String label, double value, String unit) {
        return new ScalarResult(label, value, unit, AggregationPolicy.AVG);
    }
}
