package dev.sluice.jmh.state;

import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.core.run.BenchmarkTerms;
import dev.sluice.core.run.TaskInput;
import dev.sluice.core.run.WaveInput;
import dev.sluice.core.run.Workload;
import dev.sluice.spi.InvalidParameterException;
import java.util.Locale;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Every task's input of the wave, generated and partitioned once per trial, outside any measurement, when the state
 * that checked the trial's strategies asks for it ({@link #prepare}: a configuration that does not fit is refused
 * before any input is made); and what warm-up waves
 * write: by default a copy with every record cut to its first {@value #WARM_UP_DIVISOR}th, the same code over the same
 * partitions and records for a fraction of the time a full wave takes; with {@code warmUp=full}, the input itself, so
 * that what a strategy keeps from wave to wave (a buffer pool) reaches the state the measured waves find. Owns the
 * allocator that every benchmark memory of the fork comes from.
 */
@State(Scope.Benchmark)
public class InputState {
    public static final int WARM_UP_DIVISOR = 4;

    public static final String QUARTER = BenchmarkTerms.QUARTER;
    public static final String FULL = BenchmarkTerms.FULL;

    /** What warm-up waves write: {@value #QUARTER} (every record cut to its first quarter) or {@value #FULL}. */
    @Param({QUARTER})
    public String warmUp;

    private BufferAllocator allocator;
    private Workload workload;
    private WaveInput input;
    /** The quarter copy; null when warm-up waves write the input itself. */
    private WaveInput warmUpCopy;

    @Setup(Level.Trial)
    public void open(WorkloadState workloadState) {
        if (!QUARTER.equals(warmUp) && !FULL.equals(warmUp)) {
            throw new InvalidParameterException(BenchmarkParam.WARM_UP.key(), warmUp, QUARTER + " or " + FULL);
        }
        workload = workloadState.workload();
        allocator = new RootAllocator();
    }

    /** Makes every task's input and the warm-up copy, once; called once the trial's strategies were checked. */
    public void prepare() {
        if (input != null) {
            return;
        }
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
        warmUpCopy = FULL.equals(warmUp) ? null : input.warmUp(WARM_UP_DIVISOR);
    }

    public WaveInput input() {
        return input;
    }

    /** The workload the inputs are made for. */
    public Workload workload() {
        return workload;
    }

    /** What warm-up waves write; their outputs are removed unverified. */
    public WaveInput warmUp() {
        return warmUpCopy != null ? warmUpCopy : input;
    }

    public BufferAllocator allocator() {
        return allocator;
    }

    @TearDown(Level.Trial)
    public void release() {
        if (warmUpCopy != null) {
            warmUpCopy.close();
        }
        if (input != null) {
            input.close();
        }
        if (allocator != null) {
            allocator.close();
        }
    }
}
