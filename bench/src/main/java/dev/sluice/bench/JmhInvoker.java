package dev.sluice.bench;

import dev.sluice.core.run.Prefault;
import dev.sluice.jmh.SluiceBenchmarks;
import dev.sluice.jmh.state.GateState;
import dev.sluice.report.RunDirectory;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs one {@link JmhRun} through JMH's {@link Runner} in this JVM: the forks' flags, its result into
 * {@code runs/FILE.json}, its output into {@code logs/FILE.log}, its wall time into {@code timing.tsv}; a failed run
 * prints its log's end and throws {@link BenchmarkFailed}.
 */
final class JmhInvoker {
    /** A benchmark failed, and its log's end was printed: exit status 1. */
    static final class BenchmarkFailed extends Exception {
        private static final long serialVersionUID = 1L;
    }

    /** The lines of a failed run's log that are printed. */
    static final int TAIL = 30;

    private final Path out;
    private final RunDirectory directory;
    private final RunnerOptions options;
    private final PrintStream err;
    private final String script;

    JmhInvoker(Path out, RunDirectory directory, RunnerOptions options, PrintStream err, String script) {
        this.out = out;
        this.directory = directory;
        this.options = options;
        this.err = err;
        this.script = script;
    }

    /**
     * Gives JMH's forks this JVM's class path less the jar of {@code runner} ({@link #forkClassPath}); call before
     * the first run.
     */
    static void forkClassPathWithout(Class<?> runner) {
        System.setProperty("java.class.path", forkClassPath(System.getProperty("java.class.path"),
                runner.getProtectionDomain().getCodeSource().getLocation().getPath()));
    }

    /**
     * The class path of JMH's forks: {@code classPath} less {@code runnerJar}, the jar of the runner, the report tools
     * and their chart library, so that a fork loads benchmarks.jar and {@code SLUICE_CLASSPATH} alone. JMH gives each
     * fork the {@code java.class.path} property's value as it is when the fork starts ({@code Runner}'s forked
     * command), which is why the runner sets it; its own class loader has already read the class path.
     */
    static String forkClassPath(String classPath, String runnerJar) {
        Path runner = Paths.get(runnerJar).toAbsolutePath().normalize();
        List<String> kept = new ArrayList<>();
        for (String entry : classPath.split(File.pathSeparator)) {
            if (!entry.isEmpty() && !(runner.toString().endsWith(".jar")
                    && Paths.get(entry).toAbsolutePath().normalize().equals(runner))) {
                kept.add(entry);
            }
        }
        return String.join(File.pathSeparator, kept);
    }

    /**
     * One JMH run. A size's first strategy verifies its outputs row by row and records their digests in
     * {@code verified/}; the others' equal bytes are then verified by digest (dev.sluice.core.verify.VerifiedDigests).
     */
    Collection<RunResult> run(JmhRun run) throws Exception {
        long t0 = System.nanoTime();
        Path log = out.resolve("logs").resolve(run.file + ".log");
        List<String> flags = new ArrayList<>(SluiceBenchmarks.forkFlags(run.params,
                out.resolve("verified").toString()));
        if (options.dropCaches) {
            flags.add("-D" + GateState.DROP_CACHES_PROPERTY + "=true");
        }
        if (options.prefault) {
            flags.add("-D" + Prefault.PROPERTY + "=true");
        }
        Collection<RunResult> results;
        PrintStream stdout = System.out;
        PrintStream stderr = System.err;
        try (PrintStream output = new PrintStream(Files.newOutputStream(log), true, StandardCharsets.UTF_8)) {
            // JMH writes what the fork prints to this JVM's own stdout and stderr: into the log, with JMH's output.
            System.setOut(output);
            System.setErr(output);
            try {
                results = new Runner(run.options(out.resolve("runs").resolve(run.file + ".json"), flags),
                        OutputFormatFactory.createFormatInstance(output, VerboseMode.NORMAL)).run();
            } catch (RunnerException e) {
                output.print("ERROR: ");
                e.printStackTrace(output);
                results = null;
            } finally {
                System.setOut(stdout);
                System.setErr(stderr);
            }
        }
        if (results == null) {
            err.println(script + ": " + run.file.substring(run.file.indexOf('-') + 1) + " failed; the end of " + log
                    + ":");
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            lines.subList(Math.max(0, lines.size() - TAIL), lines.size()).forEach(err::println);
            throw new BenchmarkFailed();
        }
        directory.time(run.file, System.nanoTime() - t0);
        return results;
    }
}
