package dev.sluice.core.device;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The machine's dirty page limits as the kernel reads them ({@code /proc/sys/vm/dirty_*}, read only: Sluice never
 * changes them), and what follows for a strictly capped device: the fraction of its cap at which its writers start to
 * be held ({@link #freerunFraction}).
 */
final class KernelDirtyLimits {
    /** The page size /proc/vmstat counts in. */
    private static final long PAGE = 4096;
    private final double thresholdBytes;
    private final double backgroundBytes;

    KernelDirtyLimits(double thresholdBytes, double backgroundBytes) {
        this.thresholdBytes = thresholdBytes;
        // The kernel halves a background threshold at or above the threshold (domain_dirty_limits).
        this.backgroundBytes = backgroundBytes >= thresholdBytes ? thresholdBytes / 2 : backgroundBytes;
    }

    /**
     * This machine's, as the kernel computes them now from {@code vm.dirty_*} and the dirtyable memory:
     * {@code nr_dirty_threshold} and {@code nr_dirty_background_threshold} in {@code /proc/vmstat} (pages of 4 KiB).
     */
    static KernelDirtyLimits read() throws IOException {
        double threshold = -1;
        double background = -1;
        for (String line : Host.read(Path.of("/proc/vmstat")).split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 2 && f[0].equals("nr_dirty_threshold")) {
                threshold = Long.parseLong(f[1]) * PAGE;
            } else if (f.length == 2 && f[0].equals("nr_dirty_background_threshold")) {
                background = Long.parseLong(f[1]) * PAGE;
            }
        }
        if (threshold <= 0 || background < 0) {
            throw new IOException("/proc/vmstat has no nr_dirty_threshold and nr_dirty_background_threshold");
        }
        return new KernelDirtyLimits(threshold, background);
    }

    /** The machine's dirty threshold, bytes: no device's cache can be larger. */
    double thresholdBytes() {
        return thresholdBytes;
    }

    /**
     * Where a device with {@code strict_limit} stops running free, as a fraction of its cap: the midpoint of its
     * background limit and its limit ({@code dirty_freerun_ceiling}), its background limit being its cap times the
     * machine's background over its threshold. With the defaults (10 and 20): 0.75.
     */
    double freerunFraction() {
        return (1 + backgroundBytes / thresholdBytes) / 2;
    }

    /** The cap that makes a device hold its writers at {@code cacheBytes}. */
    long capFor(long cacheBytes) {
        return Math.round(cacheBytes / freerunFraction());
    }

    String describe() {
        return String.format(Locale.ROOT, "the machine's dirty threshold %.2f GB, background %.2f GB: freerun at %.3f "
                + "of a strict cap", thresholdBytes / 1e9, backgroundBytes / 1e9, freerunFraction());
    }
}
