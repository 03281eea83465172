package dev.sluice.strategy.perbatch;

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
 * {@code bypass}: Spark's {@code BypassMergeSortShuffleWriter} (Spark 4.1.1), what {@code SortShuffleManager} runs up
 * to {@code spark.shuffle.sort.bypassMergeThreshold} (200) partitions without a map-side combine. Per-batch's
 * mechanism with the task thread doing every write: per-batch is spark-rapids' copy of it with writer threads.
 */
public final class BypassWriterFactory implements ShuffleWriterFactory {
    public static final String NAME = "bypass";
    static final String SPARK = "Spark 4.1.1 @ c0690c763b";

    static final StrategyOption<Long> FILE_BUFFER = StrategyOption.size("fileBuffer", 32 * Bytes.KiB, 1, Bytes.GiB,
            "write buffer of each partition's temp file, and of the data file in a stream copy at commit",
            "spark.shuffle.file.buffer = 32k, spark.shuffle.unsafe.file.output.buffer = 32k (" + SPARK + ")");
    static final StrategyOption<MergeCopy> MERGE_COPY = StrategyOption.choice("mergeCopy", MergeCopy.class,
            MergeCopy.TRANSFER, "how each temp file is appended to the data file at commit: kernel copy or a "
                    + "buffered stream copy", "spark.file.transferTo = true (" + SPARK
                    + ", BypassMergeSortShuffleWriter.writePartitionedData)");
    static final StrategyOption<Boolean> CHECKSUM = StrategyOption.flag("checksum", true,
            "a checksum of each partition while it is written (checksumAlgorithm), committed as the .checksum file",
            "spark.shuffle.checksum.enabled = true (" + SPARK + ")");
    private static final StrategyOptions OPTIONS = StrategyOptions.of(FILE_BUFFER, MERGE_COPY, CHECKSUM,
            ChecksumOptions.ALGORITHM);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "one temp file per partition, written by the task thread through 32 KiB buffers, concatenated into "
                + "the data file at commit (Spark's BypassMergeSortShuffleWriter)";
    }

    @Override
    public String upstream() {
        return "BypassMergeSortShuffleWriter (" + SPARK + ")";
    }

    @Override
    public StrategyOptions options() {
        return OPTIONS;
    }

    /** Per task: a file buffer per partition, and a record's compression scratch. */
    @Override
    public void planMemory(MemoryPlan plan, WriterConfig config, OptionValues options, TaskShape shape) {
        plan.offHeap("bypass file buffers and compression scratch", shape.tasks
                * (config.partitions * options.get(FILE_BUFFER) + shape.inFlightBytes(shape.inputBytes
                / shape.batches)));
    }

    /** A file per partition ({@link PartitionFile#planStorage}). */
    @Override
    public void planStorage(StoragePlan plan, WriterConfig config, OptionValues options, TaskShape shape) {
        PartitionFile.planStorage(plan, config, shape);
    }

    @Override
    public ShuffleExecutor createExecutor(WriterConfig config, OptionValues options, CountedStorage storage,
                                          HostAllocator allocator) {
        return new BypassExecutor(config, options, storage, allocator);
    }
}
