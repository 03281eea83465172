package dev.sluice.spi;

/**
 * How one map task's partitions are laid out as streams: each non-empty partition is {@link #streamHeader()}, then
 * each of its records' payload bytes in input order, then {@link #endOfStream()}. Each of the three pieces is
 * self-contained in the task's codec (which a strategy never needs to know), so a strategy may write them into
 * different buffers or files and concatenate them later. A strategy gets its map task's format from {@link dev.sluice.spi.MapTask#format}; it needs
 * nothing else of it. Thread-safe.
 */
@WriterGiven
public interface StreamFormat {
    /** Bytes that open every non-empty partition. Do not modify. */
    byte[] streamHeader();

    /** Bytes that close every non-empty partition. Do not modify. */
    byte[] endOfStream();
}
