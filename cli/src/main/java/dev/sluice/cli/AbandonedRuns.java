package dev.sluice.cli;

import java.io.PrintStream;
import java.util.List;

/**
 * What the emulation commands ({@code device}, {@code link}) say of this machine: whether it can emulate what
 * {@code show} describes, and, after {@code cleanup}, what runs killed with SIGKILL had left.
 */
final class AbandonedRuns {
    private AbandonedRuns() {}

    /** The line {@code show} ends with: whether this machine can emulate it, or what it needs ({@code missing}). */
    static void sayWhetherEmulable(PrintStream out, String missing) {
        out.println(missing == null ? "  this machine can emulate it" : "  this machine cannot emulate it: it needs "
                + missing);
    }

    /**
     * Prints how many {@code what}s of dead runs were {@code undoneVerb} and what is still recorded; FAILED where a
     * record whose process is gone could not be undone.
     */
    static int report(PrintStream out, int undone, List<String> left, String what, String undoneVerb) {
        out.println(undone == 0 ? "no " + what + " of a dead run was left on this machine"
                : undoneVerb + " " + undone + " " + what + (undone == 1 ? "" : "s") + " of dead runs");
        for (String record : left) {
            out.println("still recorded: " + record);
        }
        boolean stuck = left.stream().anyMatch(r -> r.endsWith("(its process is gone)"));
        return stuck ? SluiceCli.FAILED : SluiceCli.OK;
    }
}
