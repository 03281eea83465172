package dev.sluice.jmh;

import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.core.run.Workload;
import dev.sluice.jmh.link.NamespacedForks;
import dev.sluice.jmh.profile.ShuffleIoProfiler;
import dev.sluice.jmh.state.WriterSettings;
import dev.sluice.jmh.write.IterationState;
import dev.sluice.network.link.LinkSpec;
import dev.sluice.spi.InvalidParameterException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
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

    /**
     * The heap and direct memory the forks need for the strategies and task counts of a run, each parameter's values
     * as {@code param} gives them (or the default it is given).
     */
    private static ForkMemory forkMemory(BiFunction<BenchmarkParam, Collection<String>, Collection<String>> param) {
        // A paired trial's strategies run one at a time, so its fork needs what the largest of them needs.
        List<String> strategies = new ArrayList<>(param.apply(BenchmarkParam.STRATEGY, List.of("per-batch", "buffered",
                "async")));
        strategies.addAll(listed(param.apply(BenchmarkParam.STRATEGIES, List.of())));
        return ForkMemory.of(strategies, param.apply(BenchmarkParam.TASKS, List.of(Workload.DEFAULT_TASKS)),
                param.apply(BenchmarkParam.PARTITIONS, List.of(Workload.DEFAULT_PARTITIONS)),
                listed(param.apply(BenchmarkParam.MEMORY_LIMIT, List.of("none"))));
    }

    /**
     * The flags every fork of a run with parameters {@code params} (one value each) gets: the JVM flags of the running
     * JDK, a heap and direct-memory cap sized to its strategies and tasks, and {@code -Dsluice.verifiedDigests=DIR}
     * where {@code verifiedDigests} is not null, as one argument whatever its path holds.
     */
    public static List<String> forkFlags(Map<BenchmarkParam, String> params, String verifiedDigests) {
        return forkFlags(forkMemory((name, otherwise) -> params.containsKey(name) ? List.of(params.get(name))
                : otherwise), verifiedDigests);
    }

    private static List<String> forkFlags(ForkMemory memory, String verifiedDigests) {
        List<String> flags = new ArrayList<>(JvmFlags.forFork(Runtime.version().feature()));
        flags.addAll(memory.flags());
        if (verifiedDigests != null) {
            flags.add("-D" + IterationState.VERIFIED_DIGESTS_PROPERTY + "=" + verifiedDigests);
        }
        return flags;
    }

    /** Every value of a parameter whose values may be lists ({@code a+b}), one by one. */
    private static List<String> listed(Collection<String> values) {
        List<String> out = new ArrayList<>();
        values.forEach(v -> out.addAll(WriterSettings.split(v)));
        return out;
    }

    private static Collection<String> param(CommandLineOptions cmd, BenchmarkParam p, Collection<String> otherwise) {
        return cmd.getParameter(p.key()).hasValue() ? cmd.getParameter(p.key()).get() : otherwise;
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
        // Given to this JVM, it is handed on to the forks.
        List<String> append = new ArrayList<>(forkFlags(forkMemory((name, otherwise) -> param(cmd, name, otherwise)),
                System.getProperty(IterationState.VERIFIED_DIGESTS_PROPERTY)));
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
        // An emulated link: every fork runs inside one network namespace made for the run, and sets its loopback to
        // its own link (dev.sluice.jmh.link.NamespacedForks); refused, with the reason, where it cannot be made.
        NamespacedForks forks = null;
        try {
            if (emulatedLink(cmd)) {
                forks = NamespacedForks.open(cmd.getJvm().orElse(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString()));
                options.jvm(forks.jvm());
                System.err.println("sluice: the forks run in network namespace " + forks.namespace()
                        + ", each setting its loopback to its link");
            }
        } catch (InvalidParameterException e) {
            System.err.println("Error: " + e.getMessage());
            System.exit(2);
            return;
        }
        int status = 0;
        try {
            new Runner(options.build()).run();
        } catch (NoBenchmarksException e) {
            System.err.println("No matching benchmarks. Miss-spelled regexp? Use -l to list them.");
            status = 1;
        } catch (ProfilersFailedException e) {
            System.err.println("Profilers failed to initialize, exiting.");
            for (Throwable t = e; t != null; t = t.getCause()) {
                System.err.println("  " + t.getMessage());
            }
            status = 1;
        } catch (RunnerException e) {
            System.err.print("ERROR: ");
            e.printStackTrace(System.err);
            status = 1;
        } finally {
            if (forks != null) {
                forks.close();
            }
        }
        if (status != 0) {
            System.exit(status);
        }
    }

    /** Whether any {@code link} parameter value is emulated; each is parsed, so a bad one is refused here. */
    private static boolean emulatedLink(CommandLineOptions cmd) {
        boolean emulated = false;
        for (String value : param(cmd, BenchmarkParam.LINK, List.of(LinkSpec.NATIVE))) {
            emulated |= !LinkSpec.parse(BenchmarkParam.LINK.key(), value).isNative();
        }
        return emulated;
    }
}
