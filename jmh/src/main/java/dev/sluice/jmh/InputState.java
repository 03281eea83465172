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
 * writer settings were checked (a configuration that does not fit is refused before this); and its warm-up copy,
 * every record cut to its first {@value #WARM_UP_DIVISOR}th, which warm-up waves write: the same code over the same
 * partitions and records, for a fraction of the time a full wave takes. Owns the allocator that every benchmark memory
 * of the fork comes from.
 */
@State(Scope.Benchmark)
public class InputState {
    static final int WARM_UP_DIVISOR = 4;

    private BufferAllocator allocator;
    private WaveInput input;
    private WaveInput warmUp;

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
        warmUp = input.warmUp(WARM_UP_DIVISOR);
    }

    public WaveInput input() {
        return input;
    }

    /** What warm-up waves write; their outputs are removed unverified. */
    public WaveInput warmUp() {
        return warmUp;
    }

    public BufferAllocator allocator() {
        return allocator;
    }

    @TearDown(Level.Trial)
    public void release() {
        if (warmUp != null) {
            warmUp.close();
        }
        if (input != null) {
            input.close();
        }
        if (allocator != null) {
            allocator.close();
        }
    }
}
