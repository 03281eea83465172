package dev.sluice.jmh;

import dev.sluice.core.input.MapTaskInput;
import dev.sluice.core.output.MapOutput;
import dev.sluice.core.partition.PartitionedInput;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * End to end: one operation partitions the generated batches (the gather and zero-copy slices a GPU hash partition
 * stands for) and writes them as one map task. Generation stays outside the measured region.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgsAppend = {JvmFlags.ADD_OPENS, JvmFlags.HEAP_MIN, JvmFlags.HEAP_MAX, JvmFlags.NO_LEAK_DETECTION})
@State(Scope.Benchmark)
public class EndToEndBenchmark extends ShuffleBenchmarkBase {
    private MapTaskInput input;

    @Override
    protected void prepareInput() {
        input = generate(allocator);
        reference = reference(input, 0);
        schema = input.schema();
    }

    @Override
    protected void releaseInput() {
        if (input != null) {
            input.close();
        }
    }

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        startTrial();
        try (PartitionedInput records = partition()) {
            verifyOnce(records);
        }
    }

    private PartitionedInput partition() {
        return PartitionedInput.partition(input, partitioningScheme().create(partitions, 0), allocator);
    }

    @Benchmark
    public MapOutput partitionAndWriteMapTask() throws Exception {
        try (PartitionedInput records = partition()) {
            return writeMapTask(records);
        }
    }

    @Setup(Level.Iteration)
    public void beforeIteration() {
        IoMetrics.operationsStarting();
    }

    @TearDown(Level.Iteration)
    public void afterIteration() throws Exception {
        endIteration();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        endTrial();
    }
}
