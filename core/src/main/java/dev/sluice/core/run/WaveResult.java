package dev.sluice.core.run;

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
    /** {@code /proc/self/io} over the wave, where available. */
    public final Optional<ProcSelfIo> proc;
    /** {@code /proc/self/stat} over the wave (the process's CPU time and page faults), where available. */
    public final Optional<ProcSelfStat> cpu;
    /** The highest Dirty seen in {@code /proc/meminfo} during the wave; -1 if not sampled. */
    public final long peakDirtyBytes;

    WaveResult(List<MapTaskResult> tasks, long wallNanos, IoSnapshot io, Optional<ProcSelfIo> proc,
               Optional<ProcSelfStat> cpu, long peakDirtyBytes) {
        this.tasks = List.copyOf(tasks);
        this.wallNanos = wallNanos;
        this.io = io;
        this.proc = proc;
        this.cpu = cpu;
        this.peakDirtyBytes = peakDirtyBytes;
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
