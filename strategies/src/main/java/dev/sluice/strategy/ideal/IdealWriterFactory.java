package dev.sluice.strategy.ideal;

import dev.sluice.spi.MemoryPlan;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.ShuffleWriterFactory;
import dev.sluice.spi.StoragePlan;
import dev.sluice.spi.TaskShape;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.memory.HostAllocator;
import dev.sluice.spi.option.OptionValues;
import dev.sluice.spi.storage.CountedStorage;

/**
 * {@code ideal}: a reference, not a writer design. The same records of the same input, serialized and compressed on
 * every core into slabs reused from wave to wave, and each map task's data file written in one sequential pass of
 * gathering writes, in partition order as the records' compression finishes, so that writing overlaps the last
 * batch's compression (and forced, with fsync). It does what every strategy must do (compress every byte once, write
 * it once) and nothing else: no flow control, no memory limit, no copy between the compressed record and the file, no
 * fresh page after the first wave. What it takes is the pipeline's limit on the machine at hand; a strategy's time
 * divided by it says how much of the strategy's time is its mechanism.
 */
public final class IdealWriterFactory implements ShuffleWriterFactory {
    public static final String NAME = "ideal";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "reference, not a design: every record compressed on all cores into reused slabs, the data file written "
                + "in one sequential pass as the compression finishes (the pipeline's limit)";
    }

    @Override
    public String check(WriterConfig config, OptionValues options) {
        return config.hasMemoryLimit() ? "no memory limit: the reference holds every record of its map tasks in memory"
                : null;
    }

    @Override
    public void planMemory(MemoryPlan plan, WriterConfig config, OptionValues options, TaskShape shape) {
        // Records packed into slabs: a slab's tail left when the next record does not fit is less than that record,
        // so less than the slab's own use (at most twice the bytes), plus each compression thread's last slab per task
        // and the reserve of as many again for the next wave (Slabs).
        long cores = Runtime.getRuntime().availableProcessors();
        plan.offHeap("compressed records of every task, in slabs", (long) Math.ceil(
                shape.tasks * (2 * shape.inputBytes * TaskShape.SERIALIZED_PER_INPUT + 2 * cores * IdealWriter.SLAB)));
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
