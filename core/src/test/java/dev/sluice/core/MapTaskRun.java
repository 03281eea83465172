package dev.sluice.core;

import dev.sluice.core.input.InputSpec;
import dev.sluice.core.io.CountedStorage;
import dev.sluice.core.output.MapOutput;
import dev.sluice.core.partition.PartitionedInput;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.run.MapTaskRunner;
import dev.sluice.core.run.TaskInput;
import dev.sluice.core.verify.Reference;
import dev.sluice.core.write.MapTask;
import dev.sluice.core.write.ShuffleExecutor;
import dev.sluice.core.write.StrategySpec;
import dev.sluice.core.write.WriterConfig;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Test fixture: one map task's input ({@link TaskInput}, as the command line and the benchmarks make it) and its
 * reference, owned until closed; written with {@link MapTaskRunner}, as everything else writes a map task.
 */
public final class MapTaskRun implements AutoCloseable {
    public static final int SHUFFLE_ID = 0;
    public static final long MAP_ID = 7;

    public final TaskInput input;
    public final PartitionedInput records;
    public final Reference reference;
    private final long heldBytes;

    public MapTaskRun(InputSpec spec, Partitioning partitioning, int partitions, BufferAllocator allocator) {
        this.input = TaskInput.prepare(spec, partitioning, partitions, SHUFFLE_ID, MAP_ID, allocator, bytes -> {});
        this.records = input.records;
        this.reference = input.reference;
        this.heldBytes = allocator.getAllocatedMemory();
    }

    /** Arrow bytes the input and its records hold (writers' memory is measured against this). */
    public long heldBytes() {
        return heldBytes;
    }

    public MapTask task() {
        return input.task();
    }

    /** Writes every record with a fresh executor of {@code strategy} and commits. */
    public MapOutput write(StrategySpec strategy, WriterConfig config, CountedStorage storage,
                           BufferAllocator allocator) throws Exception {
        try (ShuffleExecutor executor = strategy.createExecutor(config, storage, allocator)) {
            return write(executor);
        }
    }

    public MapOutput write(ShuffleExecutor executor) throws Exception {
        return MapTaskRunner.run(executor, input).output;
    }

    @Override
    public void close() {
        input.close();
    }
}
