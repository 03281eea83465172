package dev.sluice.jmh;

import dev.sluice.core.input.MapTaskInput;
import dev.sluice.core.output.MapOutput;
import dev.sluice.core.partition.PartitionedInput;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;

/**
 * End to end: one operation partitions the generated batches (the gather and zero-copy slices a GPU hash partition
 * stands for) and writes them as one map task. Generation stays outside the measured region.
 */
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

}
