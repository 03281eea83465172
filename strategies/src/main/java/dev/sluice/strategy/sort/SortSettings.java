package dev.sluice.strategy.sort;

import dev.sluice.spi.Bytes;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.option.OptionValues;
import dev.sluice.spi.storage.ChecksumAlgorithm;
import dev.sluice.strategy.support.ChecksumOptions;
import dev.sluice.strategy.support.MergeCopy;

/** The sort strategy's option values, resolved once per executor. */
final class SortSettings {
    final long pageSize;
    final int initialBuffer;
    final int fileBuffer;
    final int diskWriteBuffer;
    final MergeCopy mergeCopy;
    final int mergeBuffer;
    final int outputBuffer;
    /** The checksum file's algorithm, or null: none. */
    final ChecksumAlgorithm checksum;

    SortSettings(WriterConfig config, OptionValues options) {
        long page = options.get(SortWriterFactory.PAGE_SIZE);
        this.pageSize = page > 0 ? page : defaultPageSize(config);
        this.initialBuffer = options.get(SortWriterFactory.INITIAL_BUFFER);
        this.fileBuffer = Math.toIntExact(options.get(SortWriterFactory.FILE_BUFFER));
        this.diskWriteBuffer = Math.toIntExact(options.get(SortWriterFactory.DISK_WRITE_BUFFER));
        this.mergeCopy = options.get(SortWriterFactory.MERGE_COPY);
        this.mergeBuffer = Math.toIntExact(options.get(SortWriterFactory.MERGE_BUFFER));
        this.outputBuffer = Math.toIntExact(options.get(SortWriterFactory.OUTPUT_BUFFER));
        this.checksum = ChecksumOptions.algorithm(options, SortWriterFactory.CHECKSUM);
    }

    /**
     * {@code MemoryManager.defaultPageSizeBytes}: the next power of two of the execution memory over the cores over a
     * safety factor of 16, from 1 MiB to 64 MiB. Sluice's executor has no cores of its own to divide by (its tasks
     * share the memory limit as Spark's share the pool), so it takes one; without a limit, 64 MiB.
     */
    static long defaultPageSize(WriterConfig config) {
        long max = 64 * Bytes.MiB;
        if (!config.hasMemoryLimit()) {
            return max;
        }
        long size = Long.highestOneBit(Math.max(1, config.memoryLimit / 16 - 1)) << 1;
        return Math.min(max, Math.max(Bytes.MiB, size));
    }
}
