package dev.sluice.jmh;

import dev.sluice.core.io.Bytes;
import dev.sluice.core.io.IoSnapshot;
import dev.sluice.core.io.ProcSelfIo;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * {@code -prof dev.sluice.jmh.ShuffleIoProfiler}: per map task, what the counted storage layer saw and what the
 * kernel counted in {@code /proc/self/io}, as secondary results (under {@code secondaryMetrics} in {@code -rf json}).
 * The window is each iteration's operations; the output's removal afterwards is not in it.
 *
 * <p>Keys, all per map task unless they say otherwise: {@code io.writeCalls}, {@code io.bytesWritten},
 * {@code io.committedBytes}, {@code io.amplification} (bytes written / committed), {@code io.writeCallsPerMiB}
 * (per MiB committed), {@code io.meanWriteCallBytes}, {@code io.filesCreated}, {@code io.bytesRead},
 * {@code io.fsyncs}, {@code io.spilledBytes}, {@code io.peakBufferedBytes} (most any writer held, the maximum over
 * iterations); {@code proc.syscw}, {@code proc.wchar}, {@code proc.write_bytes},
 * {@code proc.cancelled_write_bytes}, and each of those per MiB committed as {@code proc.<name>PerMiB}. Without
 * {@code /proc/self/io}, only {@code proc.available} = 0 is reported for the kernel.
 */
public final class ShuffleIoProfiler implements InternalProfiler {

    @Override
    public String getDescription() {
        return "Sluice: write calls, bytes, amplification, files, fsyncs, memory per map task; /proc/self/io deltas";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        // The benchmark records the window itself, around its operations (see IoMetrics).
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                       IterationResult result) {
        IoMetrics.End start = IoMetrics.takeStart();
        IoMetrics.End end = IoMetrics.takeEnd();
        long peak = IoMetrics.takePeakBuffered();
        if (start == null || end == null) {
            return Collections.emptyList();
        }
        long tasks = end.mapTasks - start.mapTasks;
        if (tasks <= 0) {
            return Collections.emptyList();
        }
        IoSnapshot io = end.io.since(start.io);
        Optional<ProcSelfIo> procBefore = start.proc;
        double perTask = 1.0 / tasks;
        double committedMiB = (double) io.committedBytes / tasks / Bytes.MiB;
        List<Result> out = new ArrayList<>();
        out.add(avg("io.writeCalls", io.writeCalls * perTask, "calls/op"));
        out.add(avg("io.bytesWritten", io.bytesWritten * perTask, "B/op"));
        out.add(avg("io.committedBytes", io.committedBytes * perTask, "B/op"));
        out.add(avg("io.amplification", io.committedBytes == 0 ? 0 : (double) io.bytesWritten / io.committedBytes, "ratio"));
        out.add(avg("io.writeCallsPerMiB", perMiB(io.writeCalls * perTask, committedMiB), "calls/MiB"));
        out.add(avg("io.meanWriteCallBytes", io.meanWriteCallBytes(), "B"));
        out.add(avg("io.filesCreated", io.filesCreated * perTask, "files/op"));
        out.add(avg("io.bytesRead", io.bytesRead * perTask, "B/op"));
        out.add(avg("io.fsyncs", io.fsyncs * perTask, "calls/op"));
        out.add(avg("io.spilledBytes", io.spilledBytes * perTask, "B/op"));
        out.add(new ScalarResult("io.peakBufferedBytes", peak, "B", AggregationPolicy.MAX));
        if (procBefore.isPresent() && end.proc.isPresent()) {
            ProcSelfIo d = end.proc.get().since(procBefore.get());
            proc(out, "syscw", d.syscw * perTask, "calls", committedMiB);
            proc(out, "wchar", d.wchar * perTask, "B", committedMiB);
            proc(out, "write_bytes", d.writeBytes * perTask, "B", committedMiB);
            proc(out, "cancelled_write_bytes", d.cancelledWriteBytes * perTask, "B", committedMiB);
        } else {
            out.add(avg("proc.available", 0, "bool"));
        }
        return out;
    }

    private static void proc(List<Result> out, String name, double perOp, String unit, double committedMiB) {
        out.add(avg("proc." + name, perOp, unit + "/op"));
        out.add(avg("proc." + name + "PerMiB", perMiB(perOp, committedMiB), unit + "/MiB"));
    }

    private static double perMiB(double perOp, double committedMiB) {
        return committedMiB == 0 ? 0 : perOp / committedMiB;
    }

    private static ScalarResult avg(String label, double value, String unit) {
        return new ScalarResult(label, value, unit, AggregationPolicy.AVG);
    }
}
