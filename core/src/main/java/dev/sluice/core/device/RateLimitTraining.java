package dev.sluice.core.device;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Brings a new device's {@code dirty_ratelimit} below any writer's share of its rate before its first use. A new
 * bdi starts at the kernel's initial 100 MiB/s (INIT_BW in mm/backing-dev.c); while it is above the rate each writer
 * can get (the device's rate over its writers), the kernel holds the device's dirty pages above its freerun ceiling,
 * up to the cap, and a check at 50 MiB/s measured 10.6 to 13.6% under the fluid model for it (docs/balance.md). Below,
 * the writers are held at the freerun ceiling itself, which is where the cap puts the cache. The kernel lowers the
 * limit by an eighth every 200 ms while the device's dirty pages are past its cap ({@code wb_update_dirty_ratelimit}),
 * and with a strict cap only ever lowers it (the step toward the balanced rate is taken only while the device's dirty
 * pages are at or past its setpoint, which for a strict cap is also where its writers stop running free), so a cap of
 * {@value #CAP_BYTES} bytes for twice as long as eighths alone would take to reach a sixteenth of the rate does it
 * (once as long left the limit at 13.8 to 46.0 MB/s for a 52.4 MB/s device, docs/runs/device/grid-0b5b6a1: the
 * updates come less often than every 200 ms, not traced further); then the device is written back and the real cap
 * set.
 */
final class RateLimitTraining {
    /** The kernel's initial estimate of a bdi's bandwidth and rate limit: 100 MiB/s. */
    static final double INITIAL_BYTES_PER_SECOND = 100.0 * (1 << 20);
    /** The writers the limit is brought low enough for: more than a check or a map task's threads write at once. */
    static final int WRITERS = 16;
    static final long CAP_BYTES = 8L << 20;
    /** How often the kernel updates it, and the share it moves it by. */
    static final double INTERVAL_SECONDS = 0.2;
    static final double STEP = 7.0 / 8;

    private RateLimitTraining() {}

    /** How long the training writes at {@code writeBytesPerSecond}: twice the eighths from 100 MiB/s to the target. */
    static double seconds(double writeBytesPerSecond) {
        double target = writeBytesPerSecond / WRITERS;
        double steps = Math.ceil(Math.log(target / INITIAL_BYTES_PER_SECOND) / Math.log(STEP));
        return Math.max(1.0, 2 * (Math.max(0, steps) + 2) * INTERVAL_SECONDS);
    }

    /**
     * What the training writes in all at {@code writeBytesPerSecond}: its files are on the device until it ends, so the
     * device must hold them.
     */
    static long bytes(long writeBytesPerSecond) {
        return WRITERS * each(writeBytesPerSecond);
    }

    /** Each training writer's file. */
    private static long each(long writeBytesPerSecond) {
        // As many writers as the target is a share for: the kernel gives each the same limit, so together they
        // hold the device past its cap until the limit is a sixteenth of what the device drains.
        return Math.max(1 << 20, (Math.round(seconds(writeBytesPerSecond) * writeBytesPerSecond) + CAP_BYTES)
                / WRITERS);
    }

    /** Trains the device whose bdi is {@code bdi} by writing through {@code directory}; leaves the cap at {@code cap}. */
    static String train(Path bdi, Path directory, long writeBytesPerSecond, long cap)
            throws IOException, InterruptedException {
        double seconds = seconds(writeBytesPerSecond);
        setCap(bdi, CAP_BYTES);
        long start = System.nanoTime();
        DeviceWrites.write(directory, "sluice-rate-limit-training", WRITERS, each(writeBytesPerSecond), 0);
        double took = (System.nanoTime() - start) / 1e9;
        setCap(bdi, cap);
        return String.format(Locale.ROOT, "dirty_ratelimit trained down for %.1f s (capped at %d MiB)", took,
                CAP_BYTES >> 20);
    }

    /** max_bytes and min_bytes both: raising, max first; lowering, min first (the kernel keeps min <= max). */
    static void setCap(Path bdi, long cap) throws IOException {
        long max = Long.parseLong(Host.read(bdi.resolve("max_bytes")));
        if (cap >= max) {
            Host.write(bdi.resolve("max_bytes"), String.valueOf(cap));
            Host.write(bdi.resolve("min_bytes"), String.valueOf(cap));
        } else {
            Host.write(bdi.resolve("min_bytes"), String.valueOf(cap));
            Host.write(bdi.resolve("max_bytes"), String.valueOf(cap));
        }
    }
}
