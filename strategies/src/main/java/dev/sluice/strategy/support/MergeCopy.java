package dev.sluice.strategy.support;

import dev.sluice.spi.option.Choice;

/**
 * How finished files (per-partition temp files, spill files' segments) are concatenated into the data file at commit,
 * as {@code spark.file.transferTo} chooses in Spark's writers.
 */
public enum MergeCopy implements Choice {
    /** {@code FileChannel.transferTo}: the kernel copies (sendfile/copy_file_range), one call per file or segment. */
    TRANSFER,
    /** Read and write through buffers of the strategy's, as Spark's stream copy does. */
    STREAM
}
