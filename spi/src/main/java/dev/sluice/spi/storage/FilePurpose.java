package dev.sluice.spi.storage;

import dev.sluice.spi.WriterGiven;

/**
 * Why a strategy creates a file, said once when it is created ({@link CountedStorage#create}). The storage derives
 * its accounting from it, so that no writer reports its own figures: every byte written to a {@link #SPILL} file is a
 * spilled byte, and only {@link #MAP_OUTPUT} and {@link #SPILL} files may be committed.
 */
@WriterGiven
public enum FilePurpose {
    /** Becomes part of the map output at commit: the data temp file, the index and checksum temp files. */
    MAP_OUTPUT,
    /**
     * Holds bytes only because memory ran out, or because the design puts them on disk before the commit: a partial
     * file. A committed output may hold it (a segment catalog, or the data file renamed into place).
     */
    SPILL,
    /** A working file the strategy deletes before it commits, e.g. a per-partition file concatenated at commit. */
    TEMP
}
