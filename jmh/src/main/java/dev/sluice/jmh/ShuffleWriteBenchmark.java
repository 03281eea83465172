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
 * One operation is one map task: the pre-generated, pre-partitioned records of one data size fed to a fresh writer,
 * then commit. Generation and partitioning happen once per trial, outside the measured region. As the seed report
 * ran it: one warm-up and three measured runs.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgsAppend = {JvmFlags.ADD_OPENS, JvmFlags.HEAP_MIN, JvmFlags.HEAP_MAX, JvmFlags.NO_LEAK_DETECTION})
@State(Scope.Benchmark)
public class ShuffleWriteBenchmark extends ShuffleBenchmarkBase {
    private PartitionedInput records;

    @Override
    protected void prepareInput() {
        try (MapTaskInput input = generate(allocator)) {
            reference = reference(input, 0);
            schema = input.schema();
            records = PartitionedInput.partition(input, partitioningScheme().create(partitions, 0), allocator);
        }
    }

    @Override
    protected void releaseInput() {
        if (records != null) {
            records.close();
        }
    }

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        startTrial();
        verifyOnce(records);
    }

    @Benchmark
    public MapOutput writeMapTask() throws Exception {
        return writeMapTask(records);
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
