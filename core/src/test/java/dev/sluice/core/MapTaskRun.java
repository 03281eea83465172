package dev.sluice.core;

import dev.sluice.core.input.BatchGenerator;
import dev.sluice.core.input.MapTaskInput;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.io.CountedStorage;
import dev.sluice.core.output.MapOutput;
import dev.sluice.core.partition.PartitionedInput;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.partition.ShuffleRecord;
import dev.sluice.core.verify.Reference;
import dev.sluice.core.write.MapTask;
import dev.sluice.core.write.ShuffleExecutor;
import dev.sluice.core.write.ShuffleWriter;
import dev.sluice.core.write.StrategySpec;
import dev.sluice.core.write.WriterConfig;
import org.apache.arrow.memory.BufferAllocator;

/** Test fixture: one generated, partitioned map task input and its reference, owned until closed. */
public final class MapTaskRun implements AutoCloseable {
    public static final int SHUFFLE_ID = 0;
    public static final long MAP_ID = 7;

    public final MapTaskInput input;
    public final PartitionedInput records;
    public final Reference reference;

    public MapTaskRun(InputSpec spec, Partitioning partitioning, int partitions, BufferAllocator allocator) {
        this.input = BatchGenerator.generate(spec, allocator);
        try {
            this.records = PartitionedInput.partition(input, partitioning.create(partitions, MAP_ID), allocator);
        } catch (RuntimeException e) {
            input.close();
            throw e;
        }
        this.reference = Reference.compute(input, partitioning.create(partitions, MAP_ID));
        this.heldBytes = allocator.getAllocatedMemory();
    }

    private long heldBytes;

    /** Arrow bytes the input and its records hold (writers' memory is measured against this). */
    public long heldBytes() {
        return heldBytes;
    }

    public MapTask task() {
        return new MapTask(SHUFFLE_ID, MAP_ID, input.schema());
    }

    /** Writes every record with a fresh executor of {@code strategy} and commits. */
    public MapOutput write(StrategySpec strategy, WriterConfig config, CountedStorage storage,
                           BufferAllocator allocator) throws Exception {
        try (ShuffleExecutor executor = strategy.createExecutor(config, storage, allocator)) {
            return write(executor);
        }
    }

    public MapOutput write(ShuffleExecutor executor) throws Exception {
        try (ShuffleWriter writer = executor.createMapOutputWriter(task())) {
            for (ShuffleRecord record : records.records()) {
                writer.write(record);
            }
            return writer.commit();
        }
    }

    @Override
    public void close() {
        records.close();
        input.close();
    }
}
