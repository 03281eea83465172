package dev.sluice.cli;

import dev.sluice.core.cli.Options;
import dev.sluice.core.device.DeviceMechanism;
import dev.sluice.core.device.DeviceProfile;
import dev.sluice.core.device.DeviceSpec;
import dev.sluice.core.device.DeviceWrites;
import dev.sluice.core.device.DirtyThrottleTrace;
import dev.sluice.core.device.EmulatedDevice;
import dev.sluice.core.device.FluidDisk;
import dev.sluice.core.device.RunDevice;
import dev.sluice.core.device.TaskRate;
import dev.sluice.core.run.DirtyPages;
import dev.sluice.spi.Bytes;
import dev.sluice.spi.InvalidParameterException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code sluice device check SPEC}: an emulated device against its physics. Makes the device, writes {@code --writers}
 * files of {@code --bytes} each from as many threads (paced if asked), removes them, tears the device down, and prints
 * one JSON object with the time measured beside the time a fluid disk of the device's rate and cache takes
 * ({@link FluidDisk}). The writers' own rate, which the model needs where they are not paced, is measured first with
 * the same writes on the native storage of {@code --dir}.
 */
final class DeviceCheckCommand {
    /** How far measured may depart from the model before the check says so (and exits 1 with --strict). */
    static final double TOLERANCE = 0.10;

    private final PrintStream out;
    private final PrintStream err;

    DeviceCheckCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    static Options options() {
        return new Options()
                .optional("bytes", "SIZE", "3 x the cache / writers", "bytes each writer writes (a byte size, e.g. "
                        + "384m)")
                .optional("writers", "N", "1", "writers, each a thread writing its own file (1 to 64)")
                .optional("pace", "RATE", "none", "each writer's pace, bytes per second (e.g. 60m): no write before its "
                        + "first byte's time; none writes as fast as it can")
                .optional("tasks", "N", "1", "map tasks of the run the device is for (a profile scales to them)")
                .optional("scale", "F", "1", "data scale of that run (a profile's cache scales with it)")
                .optional("task-rate", "RATE", "none", "for a balance (seed-ssd, :produce=): one task's map output per "
                        + "second that the disk is set relative to")
                .optional("mechanism", "NAME", DeviceMechanism.FLUID.text(), "how the device is made: fluid, or "
                        + "legacy (as before 2026-11, to compare)")
                .optional("dir", "DIR", System.getProperty("java.io.tmpdir"), "where the device's image and the "
                        + "native writes go (real storage; nothing else there is touched)")
                .optional("rounds", "N", "1", "the same writes N times on the same device, one after another (the "
                        + "kernel's estimates for it carry over, as from a run's warm-up waves); each is reported, the "
                        + "last at the top")
                .flag("trace", "trace the kernel's dirty throttle (tracefs): its sleeps and dirty_ratelimit")
                .flag("strict", "exit 1 when measured departs from the model by more than 10%");
    }

    static String usage() {
        return "Usage: scripts/sluice device check SPEC [--bytes SIZE] [--writers N] [--pace RATE] [options]\n\n"
                + "Makes the device SPEC (" + DeviceSpec.EMULATED + ":..., " + DeviceSpec.PER_SLOT + ":... or a "
                + "profile), writes N files of SIZE from N threads\n"
                + "(paced if asked) in 1 MiB calls, timed to each writer's last write (no fsync), removes them, tears "
                + "the\n"
                + "device down, and prints one JSON object: measuredMillis beside fluidMillis, the time a fluid disk "
                + "of the\n"
                + "device's rate and dirty cache takes (the cache absorbs, the disk drains it at the rate from the "
                + "first byte;\n"
                + "docs/balance.md). Unpaced writers' own rate, which the model needs, is measured first with the "
                + "same writes\n"
                + "on --dir's native storage (nativeMillis). Needs root and loop devices.\n\n"
                + "Options:\n" + options().describe()
                + "Exit status: 0 measured, 1 the device could not be made or written (or --strict and off the model),"
                + "\n2 invalid arguments (nothing was made). Ctrl-C tears the device down and removes the files.\n";
    }

    int run(List<String> args) throws Exception {
        Options options = options();
        if (args.isEmpty() || args.get(0).startsWith("--")) {
            if (args.contains("--help") || args.contains("-h")) {
                out.print(usage());
                return SluiceCli.OK;
            }
            err.print(usage());
            return SluiceCli.USAGE;
        }
        if (!options.parse(args.subList(1, args.size()))) {
            out.print(usage());
            return SluiceCli.OK;
        }
        DeviceSpec spec = DeviceSpec.parse("device", args.get(0));
        if (spec.isNative()) {
            throw new InvalidParameterException("device", args.get(0), "an emulated device to check: "
                    + DeviceSpec.EMULATED + ":..., " + DeviceSpec.PER_SLOT + ":... or a profile");
        }
        int writers = options.integer("writers", 1);
        if (writers > 64) {
            throw new InvalidParameterException("--writers", String.valueOf(writers), "1 to 64");
        }
        int tasks = options.integer("tasks", 1);
        double scale = options.positive("scale");
        TaskRate taskRate = null;
        if (spec.needsTaskRate()) {
            String given = options.string("task-rate");
            if (given.equals("none")) {
                throw new InvalidParameterException("--task-rate", given, "a task rate for " + spec.text() + ", which "
                        + "sets its disk relative to one: a byte size per second such as 60m");
            }
            taskRate = new TaskRate(atLeastMiB("task-rate", given, true), "given with --task-rate");
        }
        DeviceProfile.Emulation figures = spec.resolve(tasks, scale, taskRate);
        double pace = options.string("pace").equals("none") ? 0 : atLeastMiB("pace", options.string("pace"), true);
        long bytes = options.given("bytes") ? atLeastMiB("bytes", options.string("bytes"), false)
                : (3 * figures.dirtyBytes / writers + Bytes.MiB - 1) / Bytes.MiB * Bytes.MiB;
        DeviceMechanism mechanism = DeviceMechanism.find(options.string("mechanism"));
        if (mechanism == null) {
            throw new InvalidParameterException("--mechanism", options.string("mechanism"), "fluid or legacy");
        }
        Path dir = Path.of(options.string("dir")).toAbsolutePath().normalize();
        if (!Files.isDirectory(dir)) {
            throw new InvalidParameterException("--dir", dir.toString(), "an existing directory");
        }
        long total = bytes * writers;
        long capacity = RunDevice.capacity(spec, total);
        long free = Files.getFileStore(dir).getUsableSpace();
        // The image as made (a fluid device's is large enough for its rate limit's training too) and the native writes.
        long image = EmulatedDevice.capacityFor(mechanism, figures.writeBytesPerSecond, capacity);
        if (free < image + (pace == 0 ? total : 0)) {
            throw new InvalidParameterException("--bytes", Bytes.format(bytes), String.format(Locale.ROOT, "writes "
                    + "that fit %s: %d writers x %s need %.2f GB for the device and the native writes, %.2f GB free",
                    dir, writers, Bytes.format(bytes), (image + (pace == 0 ? total : 0)) / 1e9, free / 1e9));
        }
        int rounds = options.integer("rounds", 1);
        String missing = EmulatedDevice.unavailable();
        if (missing != null) {
            err.println("sluice device check: this machine cannot make an emulated device: it needs " + missing);
            return SluiceCli.FAILED;
        }

        try (Interruption interruption = new Interruption(Thread.currentThread(), err)) {
            interruption.cleansUpItself("the writers removed their files and the device was torn down (nothing of "
                    + "the check is left in " + dir + ")");
            return check(spec, figures, mechanism, dir, writers, bytes, pace, capacity, options.flag("trace"),
                    options.flag("strict"), rounds);
        }
    }

    private int check(DeviceSpec spec, DeviceProfile.Emulation figures, DeviceMechanism mechanism, Path dir,
                      int writers, long bytes, double pace, long capacity, boolean trace, boolean strict,
                      int rounds) throws IOException, InterruptedException {
        String prefix = "sluice-device-check-" + ProcessHandle.current().pid();
        DeviceWrites.Timing onNative = null;
        if (pace == 0) {
            err.printf(Locale.ROOT, "sluice: the writers' own rate: %d x %s on native storage in %s%n", writers,
                    Bytes.format(bytes), dir);
            onNative = DeviceWrites.write(dir, prefix, writers, bytes, 0);
        }
        err.printf(Locale.ROOT, "sluice: making %s (%s): write %.1f MB/s, dirty cache %.3f GB%n", spec.text(),
                mechanism.text(), figures.writeBytesPerSecond / 1e6, figures.dirtyBytes / 1e9);
        List<FluidDisk.Writer> model = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
            double own = pace > 0 ? pace : bytes / onNative.writerSeconds()[i];
            model.add(new FluidDisk.Writer(bytes, own));
        }
        FluidDisk disk = new FluidDisk(figures.writeBytesPerSecond, figures.dirtyBytes);
        FluidDisk.Result fluid = disk.finish(model);
        List<Json> runs = new ArrayList<>();
        Json last = null;
        String described;
        long cap;
        try (EmulatedDevice device = EmulatedDevice.create(figures, capacity, dir, err, true, mechanism)) {
            described = device.describe();
            cap = device.capBytes();
            for (int round = 1; round <= rounds; round++) {
                err.printf(Locale.ROOT, "sluice: round %d of %d: %d x %s%s on the device...%n", round, rounds, writers,
                        Bytes.format(bytes), pace > 0 ? String.format(Locale.ROOT, " at %.1f MB/s each",
                                pace / 1e6) : "");
                // Each round from the same state, as a wave starts: what the last one left is written back first.
                DirtyPages.system().settle(Long.MAX_VALUE / 2, 0, 0);
                DirtyThrottleTrace tracing = trace ? DirtyThrottleTrace.start(device.majMin()) : null;
                DeviceWrites.Timing timing;
                DirtyThrottleTrace.Summary throttle = null;
                try {
                    timing = DeviceWrites.write(device.directory(), "check", writers, bytes, pace);
                } finally {
                    if (tracing != null) {
                        throttle = tracing.stop();
                    }
                }
                double measured = timing.seconds();
                double departure = FluidDisk.departure(measured, fluid.seconds());
                last = new Json()
                        .put("round", round)
                        .put("measuredMillis", round(measured * 1e3))
                        .put("departure", Double.isFinite(departure) ? Math.round(departure * 1e4) / 1e4 : null)
                        .put("withinTolerance", Double.isFinite(departure) && Math.abs(departure) <= TOLERANCE)
                        .put("writerMillis", millis(timing.writerSeconds()))
                        .put("throttle", throttle == null ? null : throttle.toMap());
                runs.add(last);
                err.printf(Locale.ROOT, "sluice: measured %.0f ms, fluid model %.0f ms: %s%n", measured * 1e3,
                        fluid.seconds() * 1e3, Double.isFinite(departure) ? String.format(Locale.ROOT, "%+.1f%%%s",
                                departure * 100, Math.abs(departure) <= TOLERANCE ? ""
                                        : " (beyond 10%: the emulation departs from its model)")
                                : "the model holds nobody back");
            }
        }
        boolean within = (Boolean) last.get("withinTolerance");
        Json json = new Json()
                .put("spec", spec.text())
                .put("mechanism", mechanism.text())
                .put("writers", writers)
                .put("bytes", bytes)
                .put("totalBytes", bytes * writers)
                .put("paceBytesPerSecond", pace > 0 ? pace : null)
                .put("rateBytesPerSecond", figures.writeBytesPerSecond)
                .put("dirtyBytes", figures.dirtyBytes)
                .put("capBytes", cap)
                .put("nativeMillis", onNative == null ? null : round(onNative.seconds() * 1e3))
                .put("measuredMillis", last.get("measuredMillis"))
                .put("fluidMillis", round(fluid.seconds() * 1e3))
                .put("fluidHeldBackMillis", round(fluid.heldBackSeconds() * 1e3))
                .put("departure", last.get("departure"))
                .put("withinTolerance", within)
                .put("writerMillis", last.get("writerMillis"))
                .put("fluidWriterMillis", millis(fluid.finishSeconds()))
                .put("throttle", last.get("throttle"))
                .put("rounds", runs)
                .put("device", described)
                .put("derivation", figures.derivation);
        out.println(json);
        return strict && !within ? SluiceCli.FAILED : SluiceCli.OK;
    }

    private static List<Double> millis(double[] seconds) {
        List<Double> list = new ArrayList<>();
        for (double s : seconds) {
            list.add(round(s * 1e3));
        }
        return list;
    }

    private static double round(double millis) {
        return Math.round(millis * 10) / 10.0;
    }

    /**
     * A byte size ({@code rate}: per second) of at least 1 MiB, or refused naming the option, the value and what is
     * allowed.
     */
    private static long atLeastMiB(String option, String value, boolean rate) {
        try {
            long n = rate ? Bytes.parseRate(value) : Bytes.parse(value);
            if (n >= Bytes.MiB) {
                return n;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new InvalidParameterException("--" + option, value, rate ? "a byte size per second of at least 1m, "
                + "such as 60m" + (option.equals("pace") ? ", or none" : "") : "a byte size of at least 1m, such as 384m");
    }
}
