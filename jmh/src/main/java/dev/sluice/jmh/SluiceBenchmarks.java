package dev.sluice.jmh;

import java.util.ArrayList;
import java.util.List;
import org.openjdk.jmh.runner.NoBenchmarksException;
import org.openjdk.jmh.runner.ProfilersFailedException;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Main class of {@code benchmarks.jar}: JMH's own command line, every standard option, plus the JVM flags the forks
 * need on the running JDK (JDK 24+ needs flags that JDK 17 refuses, so they cannot all sit in {@code @Fork}). Flags
 * given with {@code -jvmArgsAppend} are kept, after Sluice's.
 */
public final class SluiceBenchmarks {
    private SluiceBenchmarks() {}

    public static void main(String[] argv) throws Exception {
        CommandLineOptions cmd;
        try {
            cmd = new CommandLineOptions(argv);
        } catch (CommandLineOptionException e) {
            System.err.println("Error parsing command line:");
            System.err.println(" " + e.getMessage());
            System.exit(1);
            return;
        }
        if (cmd.shouldHelp() || cmd.shouldList() || cmd.shouldListWithParams() || cmd.shouldListProfilers()
                || cmd.shouldListResultFormats()) {
            org.openjdk.jmh.Main.main(argv);
            return;
        }
        List<String> append = new ArrayList<>(JvmFlags.forFork(Runtime.version().feature()));
        if (cmd.getJvmArgsAppend().hasValue()) {
            append.addAll(cmd.getJvmArgsAppend().get());
        }
        Runner runner = new Runner(new OptionsBuilder().parent(cmd).jvmArgsAppend(append.toArray(new String[0])).build());
        try {
            runner.run();
        } catch (NoBenchmarksException e) {
            System.err.println("No matching benchmarks. Miss-spelled regexp? Use -l to list them.");
            System.exit(1);
        } catch (ProfilersFailedException e) {
            System.err.println("Profilers failed to initialize, exiting.");
            for (Throwable t = e; t != null; t = t.getCause()) {
                System.err.println("  " + t.getMessage());
            }
            System.exit(1);
        } catch (RunnerException e) {
            System.err.print("ERROR: ");
            e.printStackTrace(System.err);
            System.exit(1);
        }
    }
}
