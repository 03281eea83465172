package dev.sluice.core.device;

import java.util.Locale;

/**
 * How fast one map task of a run produces map output with the disk out of the way: committed bytes per task over the
 * wave's (the mapper stage's) seconds, in the unit the disk sees. A balance is a disk's bandwidth per slot <em>over</em>
 * this rate, so a profile that carries a task rate ({@link DeviceProfile#produceBytesPerSecond}) sets a run's device to
 * the same ratio to the run's own task rate ({@link DeviceProfile#forRun(int, double, TaskRate)}).
 */
public final class TaskRate {
    /** Committed map output bytes per second of one task. */
    public final double bytesPerSecond;
    /** How the rate was found, for the record: measured (with its figures), from the cache, or given. */
    public final String how;

    public TaskRate(double bytesPerSecond, String how) {
        if (!(bytesPerSecond > 0) || Double.isInfinite(bytesPerSecond)) {
            throw new IllegalArgumentException("a task rate must be a positive number of bytes per second, not "
                    + bytesPerSecond);
        }
        this.bytesPerSecond = bytesPerSecond;
        this.how = how;
    }

    /** The median of {@code rates}, the figure a calibration of several waves or runs keeps. */
    public static double median(double[] rates) {
        if (rates.length == 0) {
            throw new IllegalArgumentException("no rates: a median needs at least one");
        }
        double[] sorted = rates.clone();
        java.util.Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%.1f MB/s per task (%s)", bytesPerSecond / 1e6, how);
    }
}
