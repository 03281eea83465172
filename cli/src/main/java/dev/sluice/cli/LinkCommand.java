package dev.sluice.cli;

import dev.sluice.network.link.EmulatedLink;
import dev.sluice.network.link.LinkProfile;
import dev.sluice.network.link.LinkSpec;
import java.io.PrintStream;
import java.util.List;

/**
 * {@code sluice link}: the emulated links of the network boundary ({@code --link}): {@code profiles} lists the
 * profiles with their published figures and sources, {@code show SPEC} what a run gets, and {@code cleanup} removes
 * the namespace of every run killed outright (SIGKILL), as its record names it.
 */
final class LinkCommand {
    private final PrintStream out;
    private final PrintStream err;

    LinkCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    static String usage() {
        return "Usage: scripts/sluice link profiles\n"
                + "       scripts/sluice link show SPEC\n"
                + "       scripts/sluice link cleanup\n\n"
                + "profiles  lists the link profiles: a published node bandwidth (its sustained baseline, not its burst)\n"
                + "          divided by the node's vCPUs, with the source\n"
                + "show      prints what SPEC (" + LinkSpec.allowed() + ") gives a run and whether this machine can\n"
                + "          emulate it (a network namespace whose loopback a tbf qdisc limits; root)\n"
                + "cleanup   removes the namespace of every emulated link whose run is gone (killed with SIGKILL), as\n"
                + "          the records in the temp directory's sluice-links/ name them; links of running runs are\n"
                + "          left alone\n"
                + "Exit status: 0 done, 1 something could not be removed, 2 invalid arguments.\n";
    }

    int run(List<String> args) throws Exception {
        if (args.isEmpty() || args.contains("--help") || args.contains("-h")) {
            (args.isEmpty() ? err : out).print(usage());
            return args.isEmpty() ? SluiceCli.USAGE : SluiceCli.OK;
        }
        switch (args.get(0)) {
            case "profiles":
                for (LinkProfile p : LinkProfile.values()) {
                    out.println(p.name);
                    out.println("  " + p.derivation());
                    out.println("  source: " + p.source);
                    out.println();
                }
                return SluiceCli.OK;
            case "show": {
                if (args.size() != 2) {
                    err.print(usage());
                    return SluiceCli.USAGE;
                }
                LinkSpec spec = LinkSpec.parse("link", args.get(1));
                out.println(spec.describe());
                if (!spec.isNative()) {
                    AbandonedRuns.sayWhetherEmulable(out, EmulatedLink.unavailable());
                }
                return SluiceCli.OK;
            }
            case "cleanup": {
                int undone = EmulatedLink.cleanUpAbandoned(err);
                return AbandonedRuns.report(out, undone, EmulatedLink.recorded(), "emulated link", "removed");
            }
            default:
                err.println("sluice link: unknown command '" + args.get(0) + "': allowed is profiles, show or cleanup");
                return SluiceCli.USAGE;
        }
    }
}
