package dev.sluice.core.serde;

/**
 * How one map task's partitions are laid out as streams: each non-empty partition is {@link #streamHeader()}, then
 * each of its records' payload bytes in input order, then {@link #endOfStream()}. Each of the three pieces is
 * self-contained in the task's codec, so a strategy may write them into different buffers or files and concatenate
 * them later. A strategy gets its map task's format from {@link dev.sluice.core.write.MapTask#format}; it needs
 * nothing else of it. Thread-safe.
 */
public interface StreamFormat {
    /** Bytes that open every non-empty partition. Do not modify. */
    byte[] streamHeader();

    /** Bytes that close every non-empty partition. Do not modify. */
    byte[] endOfStream();

    /** The codec its payloads compress with; for readers and reports (a strategy has no use for it). */
    ShuffleCodec codec();
}
