package dev.sluice.jmh;

import dev.sluice.core.input.MapTaskInput;
import dev.sluice.core.output.MapOutput;
import dev.sluice.core.partition.PartitionedInput;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;

/**
 * One operation is one map task: the pre-generated, pre-partitioned records of one data size fed to a fresh writer,
 * then commit. Generation and partitioning happen once per trial, outside the measured region. As the seed report
 * ran it: one warm-up and three measured runs.
 */
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

}
