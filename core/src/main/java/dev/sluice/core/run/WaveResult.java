package dev.sluice.core.run;

import dev.sluice.core.measure.MachineCpu;
import dev.sluice.core.measure.ProcSelfIo;
import dev.sluice.core.measure.ProcSelfStat;
import dev.sluice.spi.MapOutput;
import dev.sluice.spi.storage.Cleanup;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.storage.IoSnapshot;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * One wave: every task's result, the wave's wall time (the seed's mapper stage), and what storage and the kernel saw
 * over it, for all its tasks together. Owns the outputs until {@link #close} or {@link #delete}.
 */
public final class WaveResult implements AutoCloseable {
    public final List<MapTaskResult> tasks;
    public final long wallNanos;
    public final IoSnapshot io;
    /**
     * The bytes all tasks had written when the first of them began its commit, every record given to its writer: what
     * reached storage while the map output was being made, short of what a writer's own threads still had in flight
     * ({@link #atCommitShare}).
     */
    public final long bytesBeforeFirstCommit;
    /** {@code /proc/self/io} over the wave, where available. */
    public final Optional<ProcSelfIo> proc;
    /** {@code /proc/self/stat} over the wave (the process's CPU time and page faults), where available. */
    public final Optional<ProcSelfStat> cpu;
    /** The whole machine's busy CPU over the wave ({@code /proc/stat}), where available. */
    public final Optional<MachineCpu> machineCpu;
    /** The highest Dirty seen in {@code /proc/meminfo} during the wave; -1 if not sampled. */
    public final long peakDirtyBytes;

    WaveResult(List<MapTaskResult> tasks, long wallNanos, IoSnapshot io, long bytesBeforeFirstCommit,
               Optional<ProcSelfIo> proc, Optional<ProcSelfStat> cpu, Optional<MachineCpu> machineCpu,
               long peakDirtyBytes) {
        this.tasks = List.copyOf(tasks);
        this.wallNanos = wallNanos;
        this.io = io;
        this.bytesBeforeFirstCommit = bytesBeforeFirstCommit;
        this.proc = proc;
        this.cpu = cpu;
        this.machineCpu = machineCpu;
        this.peakDirtyBytes = peakDirtyBytes;
    }

    /**
     * The share of the wave's written bytes that its writers wrote at commit, once the map output was made, rather
     * than while it was being made: how a writer meets the disk (MapStageModel's write shape). Bytes count as written
     * while the output was made if they reached storage before the first task began its commit, or went to a
     * temporary or spill file, which exist only to be written before the commit (per-batch's partition files, which
     * its writer threads may still be writing when the task thread reaches its commit). The rest are the commit's: a
     * data file written from memory (buffered) or copied from the temporary files (per-batch). NaN for a wave that
     * wrote nothing.
     */
    public double atCommitShare() {
        if (io.bytesWritten <= 0) {
            return Double.NaN;
        }
        long whileMade = Math.max(bytesBeforeFirstCommit, io.tempBytes + io.spilledBytes);
        return 1 - Math.min(1.0, (double) whileMade / io.bytesWritten);
    }

    /**
     * The CPU time everything but this process took on the machine over the wave, ms: the kernel's writeback threads,
     * an emulated device's loop workers and writeback starter, other processes (10 ms resolution per core); NaN where
     * either count is missing.
     */
    public double othersCpuMillis() {
        if (machineCpu.isEmpty() || cpu.isEmpty()) {
            return Double.NaN;
        }
        return (machineCpu.get().busyNanos - cpu.get().userNanos - cpu.get().systemNanos) / 1e6;
    }

    /** The seed's "sum of all mapper task durations". */
    public long sumTaskNanos() {
        return tasks.stream().mapToLong(t -> t.nanos).sum();
    }

    public long slowestTaskNanos() {
        return tasks.stream().mapToLong(t -> t.nanos).max().orElse(0);
    }

    /** The most memory any task's writer held. */
    public long peakBufferedBytes() {
        return tasks.stream().mapToLong(t -> t.peakBufferedBytes).max().orElse(0);
    }

    /**
     * About the memory the wave took from the machine's free memory: the bytes it wrote (page cache, spills included)
     * and what every task's writer held at its peak. What {@link Prefault} touches before the next wave of the same
     * strategy. The bytes written are the kernel's count where it has one ({@code /proc/self/io}'s wchar), else the
     * storage's: a storage that does not count ({@code CountedStorage.uncounted}) counts none, and its waves would be
     * prefaulted short of the page cache they take, which made uncounted waves slower than counted ones.
     */
    public long memoryTaken() {
        long written = Math.max(io.bytesWritten, proc.map(p -> p.wchar).orElse(0L));
        return written + tasks.stream().mapToLong(t -> t.peakBufferedBytes).sum();
    }

    public List<MapOutput> outputs() {
        return tasks.stream().map(t -> t.output).collect(Collectors.toList());
    }

    /** Removes the committed files and frees what the outputs hold. */
    public void delete(CountedStorage storage) throws IOException {
        Cleanup cleanup = new Cleanup();
        for (MapTaskResult task : tasks) {
            cleanup.run(() -> {
                try (MapOutput output = task.output) {
                    output.delete(storage);
                }
            });
        }
        cleanup.done();
    }

    /** Frees what the outputs hold; committed files stay. */
    @Override
    public void close() {
        for (MapTaskResult task : tasks) {
            task.output.close();
        }
    }
}
