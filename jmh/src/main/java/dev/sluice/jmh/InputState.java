package dev.sluice.jmh;

import dev.sluice.core.run.TaskInput;
import dev.sluice.core.run.WaveInput;
import dev.sluice.core.run.Workload;
import java.util.Locale;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Every task's input of the wave, generated and partitioned once per trial, outside any measurement, after the
 * writer settings were checked (a configuration that does not fit is refused before this). Owns the allocator that
 * every benchmark memory of the fork comes from.
 */
@State(Scope.Benchmark)
public class InputState {
    private BufferAllocator allocator;
    private WaveInput input;

    @Setup(Level.Trial)
    public void make(WorkloadState workloadState, WriterState checked) {
        Workload workload = workloadState.workload();
        allocator = new RootAllocator();
        long start = System.nanoTime();
        input = WaveInput.prepare(workload.inputSpec(), workload.tasks, workload.partitioning, workload.partitions,
                0, allocator, (task, bytes) -> {});
        for (TaskInput task : input.tasks()) {
            System.out.printf(Locale.ROOT, "%nsluice input: map %d of %s x %.3f, %d rows, %d bytes, %d batches, "
                            + "fingerprint %s", task.mapId, workload.size.label(), workload.scale, task.rows,
                    task.bytes, task.batches, task.fingerprint);
        }
        System.out.printf(Locale.ROOT, "%nsluice input: %d tasks made in %.1f s%n", workload.tasks,
                (System.nanoTime() - start) / 1e9);
    }

    public WaveInput input() {
        return input;
    }

    public BufferAllocator allocator() {
        return allocator;
    }

    @TearDown(Level.Trial)
    public void release() {
        if (input != null) {
            input.close();
        }
        if (allocator != null) {
            allocator.close();
        }
    }
}
