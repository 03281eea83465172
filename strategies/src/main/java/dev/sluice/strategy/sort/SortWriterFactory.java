package dev.sluice.strategy.sort;

import dev.sluice.spi.Bytes;
import dev.sluice.spi.MemoryPlan;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.ShuffleWriterFactory;
import dev.sluice.spi.StoragePlan;
import dev.sluice.spi.TaskShape;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.memory.HostAllocator;
import dev.sluice.spi.option.OptionValues;
import dev.sluice.spi.option.StrategyOption;
import dev.sluice.spi.option.StrategyOptions;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.strategy.support.ChecksumOptions;
import dev.sluice.strategy.support.MergeCopy;

/**
 * {@code sort}: Spark's serialized sort shuffle, {@code UnsafeShuffleWriter} over {@code ShuffleExternalSorter}, as
 * Spark 4.1.1 has it; what {@code SortShuffleManager} runs for every SQL shuffle above
 * {@code spark.shuffle.sort.bypassMergeThreshold} (200) partitions.
 */
public final class SortWriterFactory implements ShuffleWriterFactory {
    public static final String NAME = "sort";
    /** The Spark release whose writer this models; its sources are the ones cited in this package. */
    static final String SPARK = "Spark 4.1.1 @ c0690c763b";
    /** {@code SortShuffleManager.MAX_SHUFFLE_OUTPUT_PARTITIONS_FOR_SERIALIZED_MODE}: 24 bits of a packed pointer. */
    static final int MAX_PARTITIONS = PackedPointer.MAX_PARTITIONS;

    static final StrategyOption<Long> PAGE_SIZE = StrategyOption.size("pageSize", 0, 0, PackedPointer.MAX_PAGE_BYTES,
            "bytes of each memory page records are copied into (0: Spark's default, the power of two nearest above "
                    + "the memory limit over 16, from 1 MiB to 64 MiB; 64 MiB without a limit)",
            "spark.buffer.pageSize, unset: MemoryManager.pageSizeBytes (" + SPARK + ")");
    static final StrategyOption<Integer> INITIAL_BUFFER = StrategyOption.integer("initialBuffer", 4096, 2,
            1 << 28, "record pointers the sort array starts with (it doubles when full, in task memory)",
            "spark.shuffle.sort.initialBufferSize = 4096 (" + SPARK + ")");
    static final StrategyOption<Long> FILE_BUFFER = StrategyOption.size("fileBuffer", 32 * Bytes.KiB, 1, Bytes.GiB,
            "write buffer of each spill file", "spark.shuffle.file.buffer = 32k (" + SPARK + ")");
    static final StrategyOption<Long> DISK_WRITE_BUFFER = StrategyOption.size("diskWriteBuffer", Bytes.MiB, 1,
            Bytes.GiB, "the buffer a record is copied through from its page to the spill file's stream",
            "spark.shuffle.spill.diskWriteBufferSize = 1m (" + SPARK + ", ShuffleExternalSorter)");
    static final StrategyOption<MergeCopy> MERGE_COPY = StrategyOption.choice("mergeCopy", MergeCopy.class,
            MergeCopy.TRANSFER, "how the spill files' segments are concatenated into the data file when a task "
                    + "spilled: kernel copy, or a buffered stream copy",
            "spark.file.transferTo = true (" + SPARK + ", UnsafeShuffleWriter.mergeSpillsWithTransferTo)");
    static final StrategyOption<Long> MERGE_BUFFER = StrategyOption.size("mergeBuffer", 32 * Bytes.KiB, 1, Bytes.GiB,
            "read buffer of each spill file in a stream merge",
            "spark.shuffle.file.merge.buffer = 32k (" + SPARK + ")");
    static final StrategyOption<Long> OUTPUT_BUFFER = StrategyOption.size("outputBuffer", 32 * Bytes.KiB, 1,
            Bytes.GiB, "write buffer of the data file in a stream merge",
            "spark.shuffle.unsafe.file.output.buffer = 32k (" + SPARK + ")");
    static final StrategyOption<Boolean> CHECKSUM = StrategyOption.flag("checksum", true,
            "a checksum of each partition as its segments are written (checksumAlgorithm), committed as the .checksum "
                    + "file",
            "spark.shuffle.checksum.enabled = true (" + SPARK + ")");
    private static final StrategyOptions OPTIONS = StrategyOptions.of(PAGE_SIZE, INITIAL_BUFFER, FILE_BUFFER,
            DISK_WRITE_BUFFER, MERGE_COPY, MERGE_BUFFER, OUTPUT_BUFFER, CHECKSUM, ChecksumOptions.ALGORITHM);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "records copied into memory pages on the task thread, sorted by partition (radix sort of packed "
                + "pointers), spilled to a file when task memory runs out; one spill renamed into place, several "
                + "concatenated segment by segment (Spark's UnsafeShuffleWriter)";
    }

    @Override
    public String upstream() {
        return "UnsafeShuffleWriter and ShuffleExternalSorter (" + SPARK + ")";
    }

    @Override
    public StrategyOptions options() {
        return OPTIONS;
    }

    @Override
    public String check(WriterConfig config, OptionValues options) {
        if (config.partitions > MAX_PARTITIONS) {
            return "sort writes at most " + MAX_PARTITIONS + " partitions (a packed record pointer has 24 bits for "
                    + "the partition: SortShuffleManager.MAX_SHUFFLE_OUTPUT_PARTITIONS_FOR_SERIALIZED_MODE), not "
                    + config.partitions;
        }
        return null;
    }

    /**
     * Per task: its pages and pointer array, which a memory limit bounds (Spark's execution memory) and which are
     * otherwise the whole map output at most; the buffers of a spill, and the serialization buffer.
     */
    @Override
    public void planMemory(MemoryPlan plan, WriterConfig config, OptionValues options, TaskShape shape) {
        SortSettings settings = new SortSettings(config, options);
        long pages = config.hasMemoryLimit() ? config.memoryLimit
                : shape.tasks * (shape.serializedBytes() + settings.pageSize);
        plan.offHeap("sort pages and pointer arrays (" + (config.hasMemoryLimit() ? "the memory limit"
                : "each task's output and a page") + ")", pages);
        plan.offHeap("sort spill and serialization buffers", shape.tasks
                * (settings.fileBuffer + settings.diskWriteBuffer + (long) Math.ceil((double) shape.inputBytes
                / shape.batches * TaskShape.SERIALIZED_PER_INPUT)));
    }

    /**
     * Spill files, then the data file made of their segments: twice the output at most while a task with several
     * spills merges; a spill file open at a time per task, and the data file.
     */
    @Override
    public void planStorage(StoragePlan plan, WriterConfig config, OptionValues options, TaskShape shape) {
        plan.bytes("spill files and data files (2 x the output of " + shape.tasksText() + " while a merge runs)",
                2 * shape.tasks * shape.serializedBytes());
        plan.openFiles("a spill file or the data file, and the index and checksum files, of " + shape.tasksText(),
                4L * shape.tasks);
    }

    @Override
    public ShuffleExecutor createExecutor(WriterConfig config, OptionValues options, CountedStorage storage,
                                          HostAllocator allocator) {
        return new SortExecutor(config, new SortSettings(config, options), storage, allocator);
    }
}
