package dev.sluice.core.device;

import java.util.Locale;

/**
 * The seed report's node, derived from the report's own tables ("RAPIDS Shuffle Writer Performance Benchmark Report",
 * January 2026, on spark-rapids PR 13724; its figures are in docs/seeds.md), nothing else:
 * <ul>
 *   <li><b>Write bandwidth.</b> At XXLarge the baseline writes every shuffle byte twice (a temp file per partition,
 *       then the data file): 16 tasks x 1.95 GB x 2 in a mapper stage of 86.5 s. Its data is past any page cache
 *       there, so that is the disk's sustained rate.</li>
 *   <li><b>Dirty page cache.</b> At Medium the baseline writes 16 x 803 MB x 2 in 12.4 s, faster than that disk: what
 *       the disk could not have taken in 12.4 s sat in the page cache, dirty. That is a lower bound of the cache the
 *       node let pile up.</li>
 *   <li><b>Task rate.</b> At Small the baseline writes 16 x 402 MB x 2 = 12.9 GB, less than that cache: its disk held
 *       nothing back, so 402 MB per task in its 6.9 s mapper stage is how fast one slot's map task produced shuffle
 *       bytes by itself. The mapper stage, not the mean task duration (84.9 s / 16 = 5.3 s), because that is what
 *       Sluice's harness (a wave) and spark-bench (the mapper stage) measure of their own tasks: a ratio of like to
 *       like.</li>
 * </ul>
 * The balance that carries over to another harness is the ratio of the first to the third: 45.1 MB/s of disk per slot
 * to 58.3 MB/s of map output per slot, 0.774.
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
    /** Small "Shuffle Bytes/Task" (2.3). */
    static final double SMALL_BYTES = 402e6;
    /** Baseline mapper stage, Small (3.3). */
    static final double SMALL_BASELINE_SECONDS = 6.9;
    /** The baseline writes each shuffle byte twice: its temp files, then the data file. */
    static final int BASELINE_WRITES = 2;
    /**
     * Legacy ({@code seed-ssd-fitted} only): the factor the write bandwidth was fitted by on the baseline's column of
     * Sluice's own 2-core harness (docs/balance.md, "The fitted profile"): this machine's
     * map task spends about a quarter of the seed's task time per byte (4.3 against 17 ms per MB at small, where
     * neither is held by its disk), so its disk must be about that much faster to stand to its tasks as the seed's
     * stood to theirs; 3 is as fast as the loop device goes here (about 300 MB/s for two tasks) and fitted the
     * baseline's shape best of the runs tried.
     */
    public static final double WRITE_CALIBRATION = 3.0;
    /**
     * Legacy ({@code seed-ssd-fitted} only): the fit of the dirty page cache: the derivation gives a lower bound (the kernel's default
     * vm.dirty_ratio of 20% would allow 25 GB of 125); 1.25 of it fitted the baseline's shape best of 1, 1.25, 1.5 and 2.
     */
    public static final double DIRTY_CALIBRATION = 1.25;

    private final double writeBytesPerSecond;
    private final double dirtyBytes;
    private final double taskBytesPerSecond;

    private SeedDerivation(double writeBytesPerSecond, double dirtyBytes, double taskBytesPerSecond) {
        this.writeBytesPerSecond = writeBytesPerSecond;
        this.dirtyBytes = dirtyBytes;
        this.taskBytesPerSecond = taskBytesPerSecond;
    }

    public static SeedDerivation fromSeedReport() {
        double write = SLOTS * XXLARGE_BYTES * BASELINE_WRITES / XXLARGE_BASELINE_SECONDS;
        double mediumWritten = SLOTS * MEDIUM_BYTES * BASELINE_WRITES;
        double dirty = mediumWritten - write * MEDIUM_BASELINE_SECONDS;
        double smallWritten = SLOTS * SMALL_BYTES * BASELINE_WRITES;
        if (smallWritten >= dirty) {
            throw new IllegalStateException("the seed's Small does not fit its dirty cache: no task rate without disk");
        }
        return new SeedDerivation(write, dirty, SMALL_BYTES / SMALL_BASELINE_SECONDS);
    }

    /** The node's disk, bytes per second. */
    public long writeBytesPerSecond() {
        return Math.round(writeBytesPerSecond);
    }

    /** The node's dirty page cache (a lower bound), bytes. */
    public long dirtyBytes() {
        return Math.round(dirtyBytes);
    }

    /** How fast one slot's map task produced shuffle bytes with its disk out of the way, bytes per second. */
    public long taskBytesPerSecond() {
        return Math.round(taskBytesPerSecond);
    }

    /** The node's disk per slot over its task rate per slot: the balance that carries over. */
    public double balance() {
        return writeBytesPerSecond / SLOTS / taskBytesPerSecond;
    }

    /** The derivation and the legacy fit, with the figures. */
    public String explainFitted() {
        return explainDerivation() + String.format(Locale.ROOT, "; legacy: fitted on the baseline's column of "
                        + "Sluice's own 2-core harness (docs/balance.md): write x %.2f = %.3f GB/s (%.1f MB/s per slot), dirty x %.2f = %.2f GB "
                        + "(%.2f GB per slot)", WRITE_CALIBRATION, writeBytesPerSecond * WRITE_CALIBRATION / 1e9,
                writeBytesPerSecond * WRITE_CALIBRATION / SLOTS / 1e6, DIRTY_CALIBRATION,
                dirtyBytes * DIRTY_CALIBRATION / 1e9, dirtyBytes * DIRTY_CALIBRATION / SLOTS / 1e9);
    }

    /** The derivation, step by step with the report's figures. */
    public String explainDerivation() {
        double mediumWritten = SLOTS * MEDIUM_BYTES * BASELINE_WRITES;
        return String.format(Locale.ROOT, "derived from the seed report's tables: write bandwidth = 16 tasks x "
                        + "1.95 GB (XXLarge) x 2 (the baseline writes every byte twice) / 86.5 s (baseline XXLarge "
                        + "mapper stage) = %.3f GB/s (%.1f MB/s per slot); dirty page cache >= 16 x 803 MB (Medium) x 2 "
                        + "= %.2f GB written in 12.4 s (baseline Medium mapper stage), of which the disk could take "
                        + "%.3f GB/s x 12.4 s = %.2f GB: %.2f GB dirty (%.2f GB per slot); task rate = 402 MB (Small) "
                        + "/ 6.9 s (baseline Small mapper stage, where 16 x 402 MB x 2 = %.2f GB fits that cache and "
                        + "the disk holds nothing back) = %.1f MB/s per slot; balance = %.1f / %.1f = %.3f",
                writeBytesPerSecond / 1e9, writeBytesPerSecond / SLOTS / 1e6, mediumWritten / 1e9,
                writeBytesPerSecond / 1e9, writeBytesPerSecond * MEDIUM_BASELINE_SECONDS / 1e9, dirtyBytes / 1e9,
                dirtyBytes / SLOTS / 1e9, SLOTS * SMALL_BYTES * BASELINE_WRITES / 1e9, taskBytesPerSecond / 1e6,
                writeBytesPerSecond / SLOTS / 1e6, taskBytesPerSecond / 1e6, balance());
    }
}
