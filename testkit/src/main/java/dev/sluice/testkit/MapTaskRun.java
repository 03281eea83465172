package dev.sluice.testkit;

import dev.sluice.core.input.InputSpec;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.run.MapTaskRunner;
import dev.sluice.core.run.TaskInput;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.strategy.StrategySpec;
import dev.sluice.core.verify.Expected;
import dev.sluice.spi.MapOutput;
import dev.sluice.spi.MapTask;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.ShuffleRecord;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.storage.CountedStorage;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * One map task's input ({@link TaskInput}, as the command line and the benchmarks make it) and what its output must hold, owned
 * until closed; written with {@link MapTaskRunner}, as everything else writes a map task.
 */
public final class MapTaskRun implements AutoCloseable {
    public static final int SHUFFLE_ID = 0;
    public static final long MAP_ID = 7;

    public final TaskInput input;
    public final Expected expected;
    private final long heldBytes;

    public MapTaskRun(InputSpec spec, Partitioning partitioning, int partitions, BufferAllocator allocator) {
        this.input = TaskInput.prepare(spec, partitioning, partitions, SHUFFLE_ID, MAP_ID, allocator, bytes -> {});
        this.expected = input.expected;
        this.heldBytes = allocator.getAllocatedMemory();
    }

    /** Arrow bytes the input and its records hold (writers' memory is measured against this). */
    public long heldBytes() {
        return heldBytes;
    }

    public MapTask task(ShuffleCodec codec) {
        return input.task(codec);
    }

    /** The records, with payloads in {@code codec}. */
    public List<ShuffleRecord> records(ShuffleCodec codec) {
        return input.records(codec);
    }

    /** Writes every record, its payload in {@code codec}, with a fresh executor of {@code strategy} and commits. */
    public MapOutput write(StrategySpec strategy, WriterConfig config, ShuffleCodec codec, CountedStorage storage,
                           BufferAllocator allocator) throws Exception {
        try (ShuffleExecutor executor = strategy.createExecutor(config, storage, allocator)) {
            return write(executor, codec);
        }
    }

    public MapOutput write(ShuffleExecutor executor, ShuffleCodec codec) throws Exception {
        return MapTaskRunner.run(executor, input, codec).output;
    }

    @Override
    public void close() {
        input.close();
    }
}
