package dev.sluice.jmh.gpu;

import dev.sluice.core.input.BatchGenerator;
import dev.sluice.core.input.MapTaskInput;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.core.run.Trial;
import dev.sluice.core.run.Workload;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.verify.Expected;
import dev.sluice.gpu.GpuPartitioning;
import dev.sluice.gpu.RowMultisets;
import dev.sluice.jmh.state.FailedSetup;
import dev.sluice.jmh.state.TrialDirectory;
import dev.sluice.jmh.state.WorkloadState;
import dev.sluice.jmh.state.WriterState;
import dev.sluice.spi.InvalidParameterException;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.storage.CountedStorage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One map task of the GPU experiment, shared by its GPU, host and CPU paths so that all write the same rows: the seeded
 * Arrow input ({@code size} x {@code scale}, in the seed's GPU batches per task: 1 for small, 5 for xxlarge), what
 * each partition must hold on either path, and the strategy's executor over counted storage in a fresh directory.
 * Made once per trial, outside any measurement. Its parameters are the workload's (size, scale, partitions,
 * partitioning: on the device as spark-rapids partitions, on the CPU as Spark's exchange does; codec) and the
 * strategy's with the executor settings, as every write benchmark's; one map task.
 */
@State(Scope.Benchmark)
public class GpuTaskState {
    static final long MAP_ID = 0;

    private BufferAllocator allocator;
    private int partitions;
    private MapTaskInput input;
    private GpuPartitioning gpuPartitioning;
    private Partitioning cpuPartitioning;
    private int startPartition;
    private RowMultisets gpuExpected;
    private Expected cpuExpected;
    private ShuffleCodec shuffleCodec;
    private Path dir;
    private Trial trial;

    @Setup(Level.Trial)
    public void make(WorkloadState workloadState, WriterState writers) throws IOException {
        Workload workload = workloadState.workload();
        if (workload.tasks != 1) {
            throw new InvalidParameterException(BenchmarkParam.TASKS.key(), workloadState.tasks, "1: the GPU experiment writes one map "
                    + "task, on the device and on the host");
        }
        partitions = workload.partitions;
        gpuPartitioning = GpuPartitioning.parse(BenchmarkParam.PARTITIONING.key(), workloadState.partitioning);
        cpuPartitioning = workload.partitioning;
        shuffleCodec = workload.codec;
        long start = System.nanoTime();
        allocator = new RootAllocator();
        try {
            input = BatchGenerator.generate(workload.inputSpec(), allocator);
            startPartition = gpuPartitioning.startPartition(MAP_ID, partitions);
            gpuExpected = RowMultisets.expected(input.batches(), gpuPartitioning, partitions, startPartition);
            cpuExpected = Expected.compute(input, cpuPartitioning.create(partitions, MAP_ID));
            dir = TrialDirectory.create("sluice-gpu-");
            trial = writers.trial();
            trial.open(dir, new CountedStorage(), allocator);
            trial.startExecutor();
        } catch (Exception | Error e) {
            FailedSetup.undo(e, this::release);
            throw e;
        }
        System.out.printf(Locale.ROOT, "%nsluice input: %s x %.3f, %d rows, %d bytes, %d batches, fingerprint %s, "
                        + "made in %.1f s%n", workload.size.label(), workload.scale, input.rows(), input.bytes(),
                input.batches().size(), input.fingerprint(), (System.nanoTime() - start) / 1e9);
    }

    int partitions() {
        return partitions;
    }

    /** The strategy's spec, as given. */
    String strategy() {
        return trial.text;
    }

    MapTaskInput input() {
        return input;
    }

    BufferAllocator allocator() {
        return allocator;
    }

    GpuPartitioning gpuPartitioning() {
        return gpuPartitioning;
    }

    Partitioning cpuPartitioning() {
        return cpuPartitioning;
    }

    int startPartition() {
        return startPartition;
    }

    RowMultisets gpuExpected() {
        return gpuExpected;
    }

    Expected cpuExpected() {
        return cpuExpected;
    }

    ShuffleCodec codec() {
        return shuffleCodec;
    }

    CountedStorage storage() {
        return trial.storage();
    }

    ShuffleExecutor executor() {
        return trial.executor();
    }

    @TearDown(Level.Trial)
    public void release() throws IOException {
        try {
            if (trial != null) {
                trial.close();
            }
            if (input != null) {
                input.close();
            }
            if (allocator != null) {
                allocator.close();
            }
        } finally {
            TrialDirectory.remove(dir);
        }
    }
}
