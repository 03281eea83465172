package dev.sluice.cli;

import dev.sluice.core.cli.Options;
import dev.sluice.core.device.DeviceProfile;
import dev.sluice.core.device.DeviceRecovery;
import dev.sluice.core.device.DeviceSpec;
import dev.sluice.core.device.EmulatedDevice;
import dev.sluice.core.device.TaskRate;
import dev.sluice.spi.Bytes;
import dev.sluice.spi.InvalidParameterException;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * {@code sluice device}: the emulated storage devices ({@code --device}): {@code profiles} lists the device profiles
 * with their node figures and where they come from; {@code show SPEC --tasks N --scale F} prints the figures a run
 * would get; {@code check SPEC} checks a device against the fluid model ({@link DeviceCheckCommand}); {@code cleanup} undoes what runs killed outright (SIGKILL) left set up: loop devices, mounts, throttle
 * rules, bdi settings, images.
 */
final class DeviceCommand {
    private final PrintStream out;
    private final PrintStream err;

    DeviceCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    static String usage() {
        return "Usage: scripts/sluice device profiles\n"
                + "       scripts/sluice device show SPEC [--tasks N] [--scale F] [--task-rate RATE]\n"
                + "       scripts/sluice device check SPEC [--bytes SIZE] [--writers N] [--pace RATE] [...]\n"
                + "       scripts/sluice device cleanup\n\n"
                + "profiles  lists the device profiles (node-level figures with their source and derivation). A profile\n"
                + "          with a task rate is a balance: its disk per slot over the rate its slot's map task produced\n"
                + "          map output; a run of N tasks gets that balance times its own task rate (measured by the run\n"
                + "          on native storage, or cached) times N. One without is absolute: N/slots of its bandwidth.\n"
                + "          Both give N/slots of their IOPS and N/slots x F of their dirty page cache at scale F\n"
                + "show      prints the figures SPEC (" + DeviceSpec.allowed() + ") gives a run\n"
                + "          of --tasks (default 1) at --scale (default 1), and whether this machine can emulate it; for a\n"
                + "          balance, --task-rate RATE (map output bytes per second of one task, e.g. 230m) stands for\n"
                + "          the rate a run would measure\n"
                + "check     makes the device, writes N files from N threads (paced if asked), tears it down, and prints\n"
                + "          JSON: the time measured beside a fluid disk's (scripts/sluice device check --help)\n"
                + "cleanup   undoes every emulated device whose run is gone (killed with SIGKILL): throttle rules, bdi\n"
                + "          settings, mounts, loop devices and images, as their records in the temp directory's\n"
                + "          sluice-devices/ name them; devices of running runs are left alone\n"
                + "Exit status: 0 done, 1 something could not be undone, 2 invalid arguments.\n";
    }

    int run(List<String> args) throws Exception {
        if (!args.isEmpty() && args.get(0).equals("check")) {
            return new DeviceCheckCommand(out, err).run(args.subList(1, args.size()));
        }
        if (args.isEmpty() || args.contains("--help") || args.contains("-h")) {
            (args.isEmpty() ? err : out).print(usage());
            return args.isEmpty() ? SluiceCli.USAGE : SluiceCli.OK;
        }
        switch (args.get(0)) {
            case "profiles":
                for (DeviceProfile p : DeviceProfile.all()) {
                    out.printf(Locale.ROOT, "%s%n  %s%n  node: write %.1f MB/s%s, dirty page cache %.2f GB, %d task "
                                    + "slots: per slot %.1f MB/s and %.3f GB%s%n  source: %s%n%n", p.name,
                            p.description, p.writeBytesPerSecond / 1e6, p.writeIops > 0 ? ", " + p.writeIops
                                    + " IOPS" : "", p.dirtyBytes / 1e9, p.slots, p.writePerSlot() / 1e6,
                            p.dirtyPerSlot() / 1e9, p.relative() ? String.format(Locale.ROOT, "; task rate per slot "
                                    + "%.1f MB/s: balance %.3f (a run's disk per slot = %.3f x its own task rate)",
                                    p.producePerSlot() / 1e6, p.balance(), p.balance()) : "; absolute", p.source);
                }
                return SluiceCli.OK;
            case "show": {
                Options options = new Options()
                        .optional("tasks", "N", "1", "map tasks of the run")
                        .optional("scale", "F", "1", "data scale of the run")
                        .optional("task-rate", "RATE", "none", "for a balance: one task's map output per second");
                if (args.size() < 2 || args.get(1).startsWith("--") || !options.parse(args.subList(2, args.size()))) {
                    err.print(usage());
                    return SluiceCli.USAGE;
                }
                DeviceSpec spec = DeviceSpec.parse("device", args.get(1));
                if (spec.isNative()) {
                    out.println("native: the output directory as given; nothing is emulated");
                    return SluiceCli.OK;
                }
                int tasks = options.integer("tasks");
                double scale = Double.parseDouble(options.string("scale"));
                String given = options.string("task-rate");
                if (spec.needsTaskRate() && given.equals("none")) {
                    DeviceProfile p = spec.profile();
                    out.printf(Locale.ROOT, "%s: a balance: %.1f MB/s of disk per slot over %.1f MB/s of map output "
                                    + "per slot = %.3f; a run sets its disk to %.3f x its own task rate (measured on "
                                    + "native storage, or cached) x %d task%s; dirty cap %.3f GB%n  %s%n"
                                    + "  (--task-rate RATE shows the figures for a given rate)%n", spec.text(),
                            p.writePerSlot() / 1e6, p.producePerSlot() / 1e6, p.balance(), p.balance(), tasks,
                            tasks == 1 ? "" : "s", p.dirtyForRun(tasks, scale) / 1e9,
                            p.source);
                    return SluiceCli.OK;
                }
                TaskRate rate = null;
                if (!given.equals("none")) {
                    long bytes;
                    try {
                        bytes = Bytes.parseRate(given);
                    } catch (NumberFormatException e) {
                        throw new InvalidParameterException("--task-rate", given, "a byte size per second such as "
                                + "230m, or none");
                    }
                    if (bytes < 1) {
                        throw new InvalidParameterException("--task-rate", given, "more than 0 bytes per second");
                    }
                    rate = new TaskRate(bytes, "given with --task-rate");
                }
                DeviceProfile.Emulation figures = spec.resolve(tasks, scale, spec.needsTaskRate() ? rate : null);
                out.printf(Locale.ROOT, "%s: write %.1f MB/s, read %s, %s, dirty cap %.3f GB%n  %s%n", spec.text(),
                        figures.writeBytesPerSecond / 1e6, figures.readBytesPerSecond == 0 ? "not throttled"
                                : String.format(Locale.ROOT, "%.1f MB/s", figures.readBytesPerSecond / 1e6),
                        figures.iops == 0 ? "no IOPS limit" : figures.iops + " IOPS", figures.dirtyBytes / 1e9,
                        figures.derivation);
                AbandonedRuns.sayWhetherEmulable(out, EmulatedDevice.unavailable());
                return SluiceCli.OK;
            }
            case "cleanup": {
                int undone = DeviceRecovery.cleanUpAbandoned(err);
                return AbandonedRuns.report(out, undone, DeviceRecovery.recorded(), "emulated device", "undid");
            }
            default:
                err.println("sluice device: unknown command '" + args.get(0) + "': allowed is profiles, show, check or cleanup");
                return SluiceCli.USAGE;
        }
    }
}
