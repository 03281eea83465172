package dev.sluice.core.device;

import java.util.Locale;

/**
 * How an emulated device's dirty page cache is made of the kernel's parts. Both throttle the loop device's writes at the
 * block layer ({@link Throttle}) and cap its dirty pages through its bdi with {@code strict_limit}; they differ in what
 * the cache does with the bytes it holds.
 *
 * <p>The kernel does not keep a strictly capped device's dirty pages at the cap. It lets writers run free up to the
 * <em>freerun ceiling</em>, the midpoint of the device's share of {@code vm.dirty_background_*} and
 * {@code vm.dirty_*} (three quarters of the cap with the defaults 10 and 20), holds them around it by its
 * {@code dirty_ratelimit}, and starts writeback only there (mm/page-writeback.c, {@code balance_dirty_pages} and
 * {@code wb_position_ratio}). The device's share is the cap times its part of the machine's recent writeback unless a
 * floor is set, and its bandwidth estimate and {@code dirty_ratelimit} live in a loop device's bdi, which outlives the
 * device, so a device inherits them from whatever used that loop number before (traced: docs/balance.md).
 */
public enum DeviceMechanism {
    /**
     * The device as Sluice made it until 2026-11: the first free loop device, whatever its bdi's history, {@code
     * max_bytes} at the cache, writeback left to the kernel. Kept to reproduce the runs made with it and to trace the
     * difference ({@code scripts/sluice device check --mechanism legacy}).
     */
    LEGACY("legacy: a reused loop device, bdi max_bytes = the cache with strict_limit, the kernel's own writeback"),
    /**
     * A fluid disk (docs/balance.md, "A disk that behaves like a disk"): a loop device made new for the device and
     * removed with it, so that its bdi starts from the kernel's initial estimates; {@code max_bytes} and
     * {@code min_bytes} at the cache over the freerun fraction, so that the pages writers are held around are the
     * cache whatever else the machine writes; and writeback started from the first byte, as a disk drains its cache,
     * by a process that calls {@code syncfs} on the device's file system without pause ({@link WritebackStarter}).
     */
    FLUID("fluid: a new loop device (a fresh bdi), bdi max_bytes = min_bytes = the cache over the kernel's freerun "
            + "fraction, with strict_limit, writeback from the first byte (syncfs without pause)");

    private final String description;

    DeviceMechanism(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }

    /** The name on the command line. */
    public String text() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The mechanism named {@code text}, or null. */
    public static DeviceMechanism find(String text) {
        for (DeviceMechanism m : values()) {
            if (m.text().equals(text)) {
                return m;
            }
        }
        return null;
    }
}
