package dev.sluice.report;

import dev.sluice.core.device.DeviceProfile;
import dev.sluice.core.device.DeviceSpec;
import dev.sluice.core.run.BenchmarkParam;
import java.util.Arrays;
import java.util.Locale;

/**
 * One machine balance of the crossover map ({@link BalanceMap}), per task slot at full scale, from a result's
 * {@code device} parameter: a balance (disk over task rate, and its dirty cache), an absolute device (MB/s and dirty
 * cache) or native storage; ordered balances first, native storage last.
 */
final class MapBalance implements Comparable<MapBalance> {
    final String device;
    /** The disk per slot over the task rate per slot; NaN for an absolute device or native storage. */
    final double ratio;
    /** MB/s per slot for an absolute device, +infinity for native storage, NaN for a balance. */
    final double writeMBps;
    /** GB of dirty cache per slot, or NaN where the kernel's own settings apply. */
    final double dirtyGB;

    MapBalance(String device, double ratio, double writeMBps, double dirtyGB) {
        this.device = device;
        this.ratio = ratio;
        this.writeMBps = writeMBps;
        this.dirtyGB = dirtyGB;
    }

    static MapBalance of(JmhResults.Row row) {
        String device = row.param(BenchmarkParam.DEVICE).isEmpty() ? DeviceSpec.NATIVE : row.param(BenchmarkParam.DEVICE);
        DeviceSpec spec = DeviceSpec.parse(BenchmarkParam.DEVICE.key(), device);
        if (spec.isNative()) {
            return new MapBalance(device, Double.NaN, Double.POSITIVE_INFINITY, Double.NaN);
        }
        if (spec.needsTaskRate()) {
            DeviceProfile profile = spec.profile();
            return new MapBalance(device, profile.balance(), Double.NaN, profile.dirtyPerSlot() / 1e9);
        }
        int tasks = Integer.parseInt(row.param(BenchmarkParam.TASKS));
        double scale = Double.parseDouble(row.param(BenchmarkParam.SCALE));
        DeviceProfile.Emulation e = spec.resolve(tasks, scale);
        return new MapBalance(device, Double.NaN, e.writeBytesPerSecond / 1e6 / tasks,
                e.dirtyBytes / 1e9 / tasks / scale);
    }

    boolean relative() {
        return !Double.isNaN(ratio);
    }

    String label() {
        return relative() ? String.format(Locale.ROOT, "disk %.2f x the task rate, %.2f GB dirty cache per slot",
                ratio, dirtyGB)
                : Double.isInfinite(writeMBps) ? "native disk, the kernel's own dirty limits"
                : String.format(Locale.ROOT, "%.0f MB/s and %.2f GB dirty cache per slot", writeMBps, dirtyGB);
    }

    String file() {
        return relative() ? String.format(Locale.ROOT, "balance-%.2fx-%.2fGB.png", ratio, dirtyGB)
                : Double.isInfinite(writeMBps) ? "balance-native.png"
                : String.format(Locale.ROOT, "balance-%.0fMBps-%.2fGB.png", writeMBps, dirtyGB);
    }

    /** Balances first (by ratio), then absolute devices (by bandwidth), native storage last; then the cache. */
    private double[] key() {
        return new double[] {relative() ? 0 : Double.isInfinite(writeMBps) ? 2 : 1,
                relative() ? ratio : writeMBps, Double.isNaN(dirtyGB) ? 0 : dirtyGB};
    }

    @Override
    public int compareTo(MapBalance o) {
        return Arrays.compare(key(), o.key());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MapBalance && compareTo((MapBalance) o) == 0;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(key());
    }
}
