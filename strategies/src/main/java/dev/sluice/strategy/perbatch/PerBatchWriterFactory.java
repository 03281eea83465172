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

/** {@code per-batch}: the baseline of the seed report (spark-rapids' multithreaded writer before PR-13724). */
public final class PerBatchWriterFactory implements ShuffleWriterFactory {
    public static final String NAME = "per-batch";
    /** The parent of PR-13724's merge commit: the writer the seed report's baseline ran. */
    static final String BASELINE = "RapidsShuffleInternalManagerBase.scala @ e465ec3851^";

    static final StrategyOption<Long> FILE_BUFFER = StrategyOption.size("fileBuffer", 32 * Bytes.KiB, 1, Bytes.GiB,
            "write buffer of each partition's temp file, and of the stream copy at commit",
            "spark.shuffle.file.buffer = 32k (Spark config)");
    static final StrategyOption<Long> MAX_BYTES_IN_FLIGHT = StrategyOption.size("maxBytesInFlight", 128 * Bytes.MiB,
            1, Long.MAX_VALUE / 2, "uncompressed record bytes a map task may have queued for the writer threads",
            "spark.rapids.shuffle.multiThreaded.maxBytesInFlight = 128m (RapidsConf.scala @ e465ec3851^)");
    static final StrategyOption<MergeCopy> MERGE_COPY = StrategyOption.choice("mergeCopy", MergeCopy.class,
            MergeCopy.TRANSFER, "how each temp file is appended to the data file at commit: kernel copy or a "
                    + "buffered stream copy", "spark.file.transferTo = true (" + BASELINE + ", writePartitionedData)");
    static final StrategyOption<Boolean> CHECKSUM = StrategyOption.flag("checksum", true,
            "a checksum of each partition while it is written (checksumAlgorithm), committed as the .checksum file",
            "spark.shuffle.checksum.enabled = true (Spark 3.2+; setChecksumIfNeeded in " + BASELINE + ")");
    private static final StrategyOptions OPTIONS = StrategyOptions.of(FILE_BUFFER, MAX_BYTES_IN_FLIGHT, MERGE_COPY,
            CHECKSUM, ChecksumOptions.ALGORITHM);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "one temp file per partition, written by pinned writer threads through 32 KiB buffers, "
                + "concatenated into the data file at commit (spark-rapids before PR-13724)";
    }

    @Override
    public String upstream() {
        return "RapidsShuffleThreadedWriterBase before PR-13724 (" + BASELINE + "), after Spark's "
                + "BypassMergeSortShuffleWriter";
    }

    @Override
    public StrategyOptions options() {
        return OPTIONS;
    }

    /** Per task: a file buffer per partition, and the in-flight records' compression scratch. */
    @Override
    public void planMemory(MemoryPlan plan, WriterConfig config, OptionValues options, TaskShape shape) {
        plan.offHeap("per-batch file buffers and compression scratch", shape.tasks
                * (config.partitions * options.get(FILE_BUFFER) + shape.inFlightBytes(options.get(MAX_BYTES_IN_FLIGHT))));
    }

    /** A file per partition ({@link PartitionFile#planStorage}). */
    @Override
    public void planStorage(StoragePlan plan, WriterConfig config, OptionValues options, TaskShape shape) {
        PartitionFile.planStorage(plan, config, shape);
    }

    @Override
    public ShuffleExecutor createExecutor(WriterConfig config, OptionValues options, CountedStorage storage,
                                          HostAllocator allocator) {
        return new PerBatchExecutor(config, new PerBatchSettings(options), storage, allocator);
    }
}
