package dev.sluice.cli;

import dev.sluice.core.memory.DoesNotFitException;
import dev.sluice.spi.InvalidParameterException;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/** {@code scripts/sluice}: the command line. Exit status 0 success, 1 failure, 2 invalid usage. */
public final class SluiceCli {
    public static final int OK = 0;
    public static final int FAILED = 1;
    public static final int USAGE = 2;
    /** What a shell reports for a run stopped by SIGINT (the JVM's own exit status then). */
    public static final int INTERRUPTED = 130;

    private SluiceCli() {}

    public static void main(String[] args) {
        int status = run(Arrays.asList(args), System.out, System.err);
        if (!Interruption.happened()) {
            // After a signal the JVM is already exiting, with 128 + the signal's number; exit() would block.
            System.exit(status);
        }
    }

    static String usage() {
        return "Usage: scripts/sluice COMMAND [OPTIONS]\n\n"
                + "Sluice runs shuffle writer strategies in-process on identical, seeded Arrow input and measures\n"
                + "throughput, write calls and bytes-written amplification.\n\n"
                + "Commands:\n"
                + "  write        write a wave of map tasks (--tasks, 1 by default) with one strategy, verify every output,\n"
                + "               print one JSON line\n"
                + "  strategies   list the writer strategies with their options, defaults and upstream sources;\n"
                + "               'strategies SPEC...' checks specs such as async:skipMerge=true\n"
                + "  device       emulated storage devices: 'device profiles' lists the profiles and where their figures\n"
                + "               come from, 'device show SPEC' the figures a run gets, 'device check SPEC' the device\n"
                + "               against a fluid disk's time, 'device cleanup' undoes what runs killed outright left\n"
                + "               set up\n"
                + "  link         emulated network links: 'link profiles', 'link show SPEC', 'link cleanup' (removes the\n"
                + "               namespace of runs killed outright)\n\n"
                + "Options:\n"
                + "  --help       print this help; 'scripts/sluice write --help' describes every write option\n";
    }

    public static int run(List<String> args, PrintStream out, PrintStream err) {
        if (args.isEmpty()) {
            err.print(usage());
            return USAGE;
        }
        String command = args.get(0);
        List<String> rest = args.subList(1, args.size());
        try {
            switch (command) {
                case "--help":
                case "-h":
                case "help":
                    out.print(usage());
                    return OK;
                case "write":
                    return new WriteCommand(out, err).run(rest);
                case "strategies":
                    return new StrategiesCommand(out).run(rest);
                case "device":
                    return new DeviceCommand(out, err).run(rest);
                case "link":
                    return new LinkCommand(out, err).run(rest);
                default:
                    err.println("sluice: unknown command '" + command + "': allowed is write, strategies, device or link (see --help)");
                    return USAGE;
            }
        } catch (InvalidParameterException e) {
            err.println("sluice " + command + ": invalid " + dashed(e.parameter()) + " '" + e.value()
                    + "': allowed is " + e.allowed());
            return USAGE;
        } catch (DoesNotFitException e) {
            err.println("sluice " + command + ": refused: " + e.getMessage());
            return USAGE;
        } catch (Exception e) {
            if (Interruption.happened()) {
                return INTERRUPTED; // said by the interruption itself
            }
            err.println("sluice " + command + ": failed: " + e);
            e.printStackTrace(err);
            return FAILED;
        }
    }

    private static String dashed(String parameter) {
        return parameter.startsWith("--") || parameter.equals("option") || parameter.equals("argument")
                ? parameter : "--" + parameter;
    }
}
