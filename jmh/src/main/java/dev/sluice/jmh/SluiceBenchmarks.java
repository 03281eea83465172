package dev.sluice.jmh;

import dev.sluice.jmh.profile.ShuffleIoProfiler;
import dev.sluice.jmh.state.WriterSettings;
import dev.sluice.jmh.write.IterationState;
import dev.sluice.core.run.Workload;
import java.util.ArrayList;
import java.util.Collection;
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
 * need on the running JDK (JDK 24+ needs flags that JDK 17 refuses, so they cannot all sit in {@code @Fork}), a heap and
 * direct-memory cap sized to the configurations asked for ({@link ForkMemory}), and {@link ShuffleIoProfiler}, whose
 * figures every Sluice result carries. Flags given with {@code -jvmArgsAppend} are kept, after Sluice's, so they win.
 * A {@code -Dsluice.verifiedDigests=DIR} given to this JVM goes to the forks ({@link IterationState}).
 */
public final class SluiceBenchmarks {
    private SluiceBenchmarks() {}

    /** The heap and direct memory the forks need for the strategies and task counts on the command line. */
    private static ForkMemory forkMemory(CommandLineOptions cmd) {
        // A paired trial's strategies run one at a time, so its fork needs what the largest of them needs.
        List<String> strategies = new ArrayList<>(param(cmd, "strategy", List.of("per-batch", "buffered", "async")));
        strategies.addAll(listed(param(cmd, "strategies", List.of())));
        return ForkMemory.of(strategies, param(cmd, "tasks", List.of(Workload.DEFAULT_TASKS)),
                param(cmd, "partitions", List.of(Workload.DEFAULT_PARTITIONS)),
                listed(param(cmd, "memoryLimit", List.of("none"))));
    }

    /** Every value of a parameter whose values may be lists ({@code a+b}), one by one. */
    private static List<String> listed(Collection<String> values) {
        List<String> out = new ArrayList<>();
        values.forEach(v -> out.addAll(WriterSettings.split(v)));
        return out;
    }

    private static Collection<String> param(CommandLineOptions cmd, String name, Collection<String> otherwise) {
        return cmd.getParameter(name).hasValue() ? cmd.getParameter(name).get() : otherwise;
    }

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
        append.addAll(forkMemory(cmd).flags());
        // Given to this JVM (scripts/bench.sh does), it is handed on as one argument, whatever its path holds.
        String verifiedDigests = System.getProperty(IterationState.VERIFIED_DIGESTS_PROPERTY);
        if (verifiedDigests != null) {
            append.add("-D" + IterationState.VERIFIED_DIGESTS_PROPERTY + "=" + verifiedDigests);
        }
        if (cmd.getJvmArgsAppend().hasValue()) {
            append.addAll(cmd.getJvmArgsAppend().get());
        }
        OptionsBuilder options = new OptionsBuilder();
        options.parent(cmd).jvmArgsAppend(append.toArray(new String[0]));
        boolean profiled = cmd.getProfilers().stream()
                .anyMatch(p -> p.getKlass().equals(ShuffleIoProfiler.class.getName()));
        if (!profiled) {
            options.addProfiler(ShuffleIoProfiler.class);
        }
        Runner runner = new Runner(options.build());
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
