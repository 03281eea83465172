package dev.sluice.strategy.perbatch;

import dev.sluice.spi.option.Choice;

/** How per-partition files are copied into the data file at commit ({@code spark.file.transferTo}). */
enum MergeCopy implements Choice {
    /** {@code FileChannel.transferTo}: the kernel copies (sendfile/copy_file_range), one call per file. */
    TRANSFER,
    /** Read and write through a buffer of {@code fileBuffer} bytes, as Spark's stream copy does. */
    STREAM
}
