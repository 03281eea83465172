package dev.sluice.core.run;

import dev.sluice.core.device.DeviceSpec;
import dev.sluice.core.device.StorageCeiling;
import dev.sluice.core.device.TaskRate;
import dev.sluice.core.device.TaskRateCache;
import dev.sluice.spi.Bytes;
import dev.sluice.spi.WriterConfig;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A balance this machine can emulate (docs/balance.md, "Balances this machine can emulate"). A balance sets a run's
 * device at a ratio to the harness's own task rate, and Sluice's harness, which makes its inputs outside the timing,
 * has fast tasks: the device it asks for can pass what the storage under it delivers, and a throttle cannot make
 * storage faster, so such a run would measure another balance than the one it names. The producer {@value #AUTO}
 * (the default) keeps the run's tasks as they are where the device asks at most {@link #STORAGE_SHARE} of what the
 * storage delivers ({@link StorageCeiling}), and otherwise slows them with a GPU producer (each batch waits on the
 * task's thread, its core free for the writers, as the seed's tasks waited on their GPU scans) until it asks no more.
 */
public final class BalanceFit {
    /** The producer option's value that chooses one ({@link #resolve}). */
    public static final String AUTO = "auto";
    /** The most of the storage's measured rate a balance's device may ask, leaving room for its bursts and its drift. */
    static final double STORAGE_SHARE = 0.5;

    /** The producer chosen and why, in words. */
    public static final class Choice {
        public final Producer producer;
        public final String why;

        Choice(Producer producer, String why) {
            this.producer = producer;
            this.why = why;
        }

        @Override
        public String toString() {
            return producer + " (" + AUTO + ": " + why + ")";
        }
    }

    private BalanceFit() {}

    /**
     * The producer for a run of {@code workload} on {@code device}: none where the device is not a balance; else,
     * with the task rate of the workload without a producer ({@link TaskRateCalibration}, cached) and the storage's
     * ceiling ({@link StorageCeiling}, cached), what {@link #choose} says. Measures on native storage in {@code base}.
     */
    public static Choice resolve(DeviceSpec device, Workload workload, WriterConfig.Builder settings, Path base,
                                 TaskRateCache cache, PrintStream log) throws Exception {
        if (!device.needsTaskRate()) {
            return new Choice(Producer.NONE, "device " + device.text() + " is not a balance: its figures do not "
                    + "follow the task rate");
        }
        Workload none = workload.withProducer(Producer.NONE);
        TaskRate rate = TaskRateCalibration.find(none, settings, base, cache, log);
        double asked = device.resolve(none.tasks, none.scale, rate).writeBytesPerSecond;
        TaskRate storage = StorageCeiling.find(base, cache, log);
        return choose(asked, rate.bytesPerSecond, storage.bytesPerSecond);
    }

    /**
     * The producer for tasks of {@code taskRate} bytes of map output per second, whose balance asks the device for
     * {@code asked} bytes per second (proportional to the task rate), on storage that delivers {@code storage}:
     * none where {@code asked} is at most {@link #STORAGE_SHARE} of {@code storage}; else {@code gpu:RATE}, RATE in
     * whole MiB/s rounded down, for a target task rate T = taskRate x share x storage / asked. A batch of B input
     * bytes then takes B/RATE before its writes, which took about B x (output per input byte) / taskRate; RATE =
     * 1 / (1/T - 1/taskRate) makes the two together T with one output byte per input byte, and with the fewer output
     * bytes a compressed shuffle has the measured rate comes out below T: the device asks at most the share.
     */
    static Choice choose(double asked, double taskRate, double storage) {
        double allowed = STORAGE_SHARE * storage;
        if (asked <= allowed) {
            return new Choice(Producer.NONE, String.format(Locale.ROOT, "none: the balance asks the device for %.1f "
                    + "MB/s, within %.0f%% of the %.1f MB/s the storage under it delivers", asked / 1e6,
                    100 * STORAGE_SHARE, storage / 1e6));
        }
        double target = taskRate * allowed / asked;
        double rate = 1 / (1 / target - 1 / taskRate);
        long mib = Math.max(1, (long) Math.floor(rate / Bytes.MiB));
        Producer producer = Producer.parse("producer", "gpu:" + mib + "m");
        return new Choice(producer, String.format(Locale.ROOT, "with the tasks as they are (%.1f MB/s of map output "
                + "each) the balance would ask the device for %.1f MB/s, more than %.0f%% of the %.1f MB/s the "
                + "storage under it delivers; a GPU producer of %d MiB/s slows each task to at most %.1f MB/s, the "
                + "device to at most %.1f MB/s", taskRate / 1e6, asked / 1e6, 100 * STORAGE_SHARE, storage / 1e6,
                mib, target / 1e6, allowed / 1e6));
    }
}
