package dev.sluice.core.device;

import java.util.Locale;

/**
 * The seed report's node, derived from the report's own tables (shared/seeds, "RAPIDS Shuffle Writer Performance
 * Benchmark Report", sections 2 and 3), nothing else:
 * <ul>
 *   <li><b>Write bandwidth.</b> At XXLarge the baseline writes every shuffle byte twice (a temp file per partition,
 *       then the data file): 16 tasks x 1.95 GB x 2 in a mapper stage of 86.5 s. Its data is past any page cache
 *       there, so that is the disk's sustained rate.</li>
 *   <li><b>Dirty page cache.</b> At Medium the baseline writes 16 x 803 MB x 2 in 12.4 s, faster than that disk: what
 *       the disk could not have taken in 12.4 s sat in the page cache, dirty. That is a lower bound of the cache the
 *       node let pile up.</li>
 * </ul>
 * The report's GB are decimal (its sizes are the Arrow bytes Sluice's sizes take from it).
 */
public final class SeedDerivation {
    /** "Local Parallelism 16", "Writer Threads 16" (section 2.2). */
    public static final int SLOTS = 16;
    /** XXLarge "Shuffle Bytes/Task" (2.3). */
    static final double XXLARGE_BYTES = 1.95e9;
    /** Medium "Shuffle Bytes/Task" (2.3). */
    static final double MEDIUM_BYTES = 803e6;
    /** Baseline mapper stage, XXLarge (3.3). */
    static final double XXLARGE_BASELINE_SECONDS = 86.5;
    /** Baseline mapper stage, Medium (3.3). */
    static final double MEDIUM_BASELINE_SECONDS = 12.4;
    /** The baseline writes each shuffle byte twice: its temp files, then the data file. */
    static final int BASELINE_WRITES = 2;

    private final double writeBytesPerSecond;
    private final double dirtyBytes;

    private SeedDerivation(double writeBytesPerSecond, double dirtyBytes) {
        this.writeBytesPerSecond = writeBytesPerSecond;
        this.dirtyBytes = dirtyBytes;
    }

    public static SeedDerivation fromSeedReport() {
        double write = SLOTS * XXLARGE_BYTES * BASELINE_WRITES / XXLARGE_BASELINE_SECONDS;
        double mediumWritten = SLOTS * MEDIUM_BYTES * BASELINE_WRITES;
        double dirty = mediumWritten - write * MEDIUM_BASELINE_SECONDS;
        return new SeedDerivation(write, dirty);
    }

    /** The node's disk, bytes per second. */
    public long writeBytesPerSecond() {
        return Math.round(writeBytesPerSecond);
    }

    /** The node's dirty page cache (a lower bound), bytes. */
    public long dirtyBytes() {
        return Math.round(dirtyBytes);
    }

    /** The derivation, step by step with the report's figures. */
    public String explain() {
        double mediumWritten = SLOTS * MEDIUM_BYTES * BASELINE_WRITES;
        return String.format(Locale.ROOT, "derived from the seed report's tables: write bandwidth = 16 tasks x "
                        + "1.95 GB (XXLarge) x 2 (the baseline writes every byte twice) / 86.5 s (baseline XXLarge "
                        + "mapper stage) = %.3f GB/s (%.1f MB/s per slot); dirty page cache >= 16 x 803 MB (Medium) x 2 "
                        + "= %.2f GB written in 12.4 s (baseline Medium mapper stage), of which the disk could take "
                        + "%.3f GB/s x 12.4 s = %.2f GB: %.2f GB dirty (%.2f GB per slot)",
                writeBytesPerSecond / 1e9, writeBytesPerSecond / SLOTS / 1e6, mediumWritten / 1e9,
                writeBytesPerSecond / 1e9, writeBytesPerSecond * MEDIUM_BASELINE_SECONDS / 1e9, dirtyBytes / 1e9,
                dirtyBytes / SLOTS / 1e9);
    }
}
