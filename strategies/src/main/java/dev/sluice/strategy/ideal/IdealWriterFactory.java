package dev.sluice.strategy.ideal;

import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.StoragePlan;
import dev.sluice.spi.MemoryPlan;
import dev.sluice.spi.TaskShape;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.ShuffleWriterFactory;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.option.OptionValues;
import dev.sluice.spi.memory.HostAllocator;

/**
 * {@code ideal}: a reference, not a writer design. The same records of the same input, serialized and compressed on
 * every core into memory reused from wave to wave, then each map task's data file written in one sequential pass of
 * gathering writes (and forced, with fsync). It does what every strategy must do (compress every byte once, write it
 * once) and nothing else: no flow control, no memory limit, no copy between the compressed record and the file. What
 * it takes is the pipeline's physical limit on the machine at hand; a strategy's time divided by it says how much of
 * the strategy's time is its mechanism.
 */
public final class IdealWriterFactory implements ShuffleWriterFactory {
    public static final String NAME = "ideal";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "reference, not a design: every record compressed on all cores into reused memory, then the data file "
                + "written in one sequential pass (the pipeline's physical limit)";
    }

    @Override
    public String check(WriterConfig config, OptionValues options) {
        return config.hasMemoryLimit() ? "no memory limit: the reference holds every record of its map tasks in memory"
                : null;
    }

    @Override
    public void planMemory(MemoryPlan plan, WriterConfig config, OptionValues options, TaskShape shape) {
        // Pooled records are rounded up to a power of two: up to twice their bytes.
        plan.offHeap("compressed records of every task, pooled", (long) Math.ceil(
                shape.tasks * 2 * shape.inputBytes * TaskShape.SERIALIZED_PER_INPUT));
    }

    /** Each task's data file, written once; its data, index and checksum files open. */
    @Override
    public void planStorage(StoragePlan plan, WriterConfig config, OptionValues options, TaskShape shape) {
        plan.bytes("data files (the output of " + shape.tasksText() + ", once)", shape.tasks * shape.serializedBytes());
        plan.openFiles("each task's data, index and checksum files", 3L * shape.tasks);
    }

    @Override
    public ShuffleExecutor createExecutor(WriterConfig config, OptionValues options, CountedStorage storage,
                                          HostAllocator allocator) {
        return new IdealExecutor(config, storage, allocator);
    }
}
