package dev.sluice.jmh.profile;

import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;

/**
 * {@code -prof dev.sluice.jmh.profile.ShuffleIoProfiler} (added by {@link SluiceBenchmarks} unless given): each iteration's
 * figures besides its time, as secondary results (under {@code secondaryMetrics} in {@code -rf json}), averaged over
 * iterations unless they say otherwise.
 *
 * <p>The wave: {@code wave.tasks}, {@code wave.inputBytesPerTask}, {@code wave.batchesPerTask},
 * {@code wave.dataBytesPerTask} (bytes of the data file, or segment catalog, per task). The seed report's
 * tables: {@code wave.sumTaskMillis} (sum of the map task durations), {@code wave.slowestTaskMillis},
 * {@code query.readMillis} (the reduce-side read of every partition), {@code query.totalMillis} (the wave plus that
 * read). Per map task: {@code io.writeCalls}, {@code io.bytesWritten}, {@code io.committedBytes},
 * {@code io.filesCreated}, {@code io.peakOpenFiles} (the most of any wave), {@code io.bytesRead}, {@code io.fsyncs}, {@code io.spilledBytes}; ratios:
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
    // Each family's figures say what they are (WaveFigures, BoundaryFigures, GpuFigures): the profiler hands them on.

    @Override
    public String getDescription() {
        return "Sluice: task durations, the reduce-side read, write calls, bytes, amplification, files, memory, "
                + "/proc/self/io and the page cache's dirty data per wave";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        IterationFigures.take();
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                       IterationResult result) {
        Figures figures = IterationFigures.take();
        return figures == null ? List.of() : figures.results();
    }
}
