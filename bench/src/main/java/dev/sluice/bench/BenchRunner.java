package dev.sluice.bench;

import dev.sluice.bench.Plan.Configuration;
import dev.sluice.core.device.DeviceSpec;
import dev.sluice.core.device.TaskRateCache;
import dev.sluice.core.run.BalanceFit;
import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.core.run.Metric;
import dev.sluice.core.run.Prefault;
import dev.sluice.core.run.Workload;
import dev.sluice.jmh.SluiceBenchmarks;
import dev.sluice.jmh.state.GateState;
import dev.sluice.jmh.state.TrialDirectory;
import dev.sluice.jmh.state.WriterSettings;
import dev.sluice.report.BudgetAllocation;
import dev.sluice.report.ReportTools;
import dev.sluice.report.RunDirectory;
import dev.sluice.report.StoppingRule;
import dev.sluice.spi.Bytes;
import dev.sluice.spi.InvalidParameterException;
import dev.sluice.spi.WriterConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * scripts/bench.sh's runner: takes its options, makes the plan ({@link BenchPlan}), runs every configuration through
 * JMH's {@link Runner} in forks of its own, a paired one in the chunks its {@link ChunkSchedule} asks for, and writes
 * the run directory: {@code plan.txt} (the plan as run, for people), {@code runs/} and {@code logs/} (each JMH run's
 * result and output), {@code timing.tsv}, {@code verified/}, then {@code jmh-result.json}, {@code comparisons.json}
 * and {@code stops.json} ({@link RunDirectory}), {@code environment.json} and the report; progress on stderr, the
 * report's path last on stdout. Exit status: 0 done, 1 a benchmark failed, 2 bad arguments.
 *
 * <p>Run by scripts/bench.sh with {@code SLUICE_ROOT} (the repository) and the class path of sluice-bench.jar,
 * benchmarks.jar and {@code SLUICE_CLASSPATH}; JMH's forks get the same class path less this runner's own jar
 * ({@link #forkClassPath}).
 */
public final class BenchRunner {
    /** The options that take a value; {@code --jdk} is the launcher's, accepted here and not used. */
    static final List<String> OPTIONS = List.of("--preset", "--strategies", "--sizes", "--scale", "--tasks", "--codec",
            "--sync", "--warmups", "--warmup-records", "--iterations", "--paired", "--budget", "--device",
            "--producer", "--floors", "--drop-caches", "--prefault", "--jdk", "--out");
    /** The secondary result the raw write takes its size from (WaveFigures writes it): a data file's bytes per task. */
    static final String DATA_BYTES_PER_TASK = Metric.WAVE_DATA_BYTES_PER_TASK.key();
    /** The lines of a failed run's log that are printed. */
    private static final int TAIL = 30;

    private final String script = "bench.sh";
    /**
     * The repository, for the default {@code --out} and the git commit: {@code SLUICE_ROOT}, set by the launcher (an
     * environment variable, not a system property, as JMH gives its forks this JVM's flags).
     */
    private final Path root = Paths.get(System.getenv().getOrDefault("SLUICE_ROOT", ".")).toAbsolutePath()
            .normalize();
    private final PrintStream err = System.err;
    private Path out;
    private RunDirectory directory;
    /** The results of every configuration run in one fork of its own, by name. */
    private final Map<String, Collection<RunResult>> results = new HashMap<>();

    /** A usage error: exit status 2. */
    static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    /** A benchmark failed, and its log's end was printed: exit status 1. */
    static final class BenchmarkFailed extends Exception {
        private static final long serialVersionUID = 1L;
    }

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        BenchRunner runner = new BenchRunner();
        int status;
        try {
            status = runner.run(List.of(args));
        } catch (UsageException e) {
            status = runner.usageError(e.getMessage());
        } catch (InvalidParameterException e) {
            status = runner.usageError("invalid " + e.parameter() + " '" + e.value() + "': allowed is " + e.allowed());
        } catch (BenchmarkFailed e) {
            status = 1;
        } catch (Exception e) {
            System.err.println(runner.script + ": " + e);
            status = 1;
        }
        System.exit(status);
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
        for (String entry : classPath.split(java.io.File.pathSeparator)) {
            if (!entry.isEmpty() && !(runner.toString().endsWith(".jar")
                    && Paths.get(entry).toAbsolutePath().normalize().equals(runner))) {
                kept.add(entry);
            }
        }
        return String.join(java.io.File.pathSeparator, kept);
    }

    private int usageError(String message) {
        err.println(script + ": " + message);
        err.println(script + ": see '" + script + " --help'");
        return 2;
    }

    int run(List<String> args) throws Exception {
        List<String> planArgs = new ArrayList<>();
        String given = null;
        for (int i = 0; i < args.size(); i += 2) {
            String name = args.get(i);
            if (name.equals("--help") || name.equals("-h")) {
                System.out.print(usage());
                return 0;
            }
            if (!OPTIONS.contains(name)) {
                throw new UsageException("unknown argument '" + name + "': allowed are " + String.join(", ", OPTIONS)
                        + ", --help");
            }
            if (i + 1 >= args.size() || args.get(i + 1).isEmpty()) {
                throw new UsageException(name + " needs a value");
            }
            if (name.equals("--out")) {
                given = args.get(i + 1);
            } else if (name.equals("--drop-caches")) {
                dropCaches = dropCaches(args.get(i + 1));
            } else if (name.equals("--prefault")) {
                prefault = trueOrFalse(name, args.get(i + 1));
            } else if (!name.equals("--jdk")) {
                planArgs.addAll(List.of(name, args.get(i + 1)));
            }
        }
        Plan plan = chooseProducers(BenchPlan.plan(planArgs));
        out = given != null ? Paths.get(given) : root.resolve("bench/target/bench").resolve(plan.preset + "-"
                + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        checkOut(given != null ? given : out.toString());
        // The code measured is the code at the start.
        String commit = commit();
        Files.createDirectories(out.resolve("runs"));
        Files.createDirectories(out.resolve("logs"));
        out = out.toAbsolutePath().normalize();
        directory = plan.directory(out);
        System.setProperty("java.class.path", forkClassPath(System.getProperty("java.class.path"),
                BenchRunner.class.getProtectionDomain().getCodeSource().getLocation().getPath()));
        writePlan(plan);
        runAll(plan);
        directory.writeResults();
        Path result = out.resolve("jmh-result.json");
        Path environment = out.resolve("environment.json");
        ReportTools.environment(environment, Paths.get(System.getenv().getOrDefault("TMPDIR", "/tmp")),
                System.getProperty("java.vendor") + " " + System.getProperty("java.vm.version"), commit, result,
                gate());
        Path report = plan.preset.equals("balance") ? ReportTools.balance(result, out.resolve("report"))
                : ReportTools.report(result, out.resolve("report"), environment);
        err.println(script + ": finished " + plan.configurations.size() + " configurations in " + (now() - started)
                + "s");
        System.out.println(report);
        return 0;
    }

    /**
     * The plan with the producer {@code auto} chosen for each device it names ({@link BalanceFit#resolve}: for a
     * balance, this harness's task rate at the size's workload without a producer and the storage under a device,
     * each measured here once per machine and kept in the task-rate cache); says each choice.
     */
    private Plan chooseProducers(Plan plan) throws Exception {
        Map<DeviceSpec, String> chosen = new java.util.LinkedHashMap<>();
        List<String> said = new ArrayList<>();
        for (Configuration c : plan.configurations) {
            Plan.Settings s = c.settings;
            if (s.producer == null || !s.producer.equals(BalanceFit.AUTO) || chosen.containsKey(c.device)) {
                continue;
            }
            DeviceSpec spec = c.device;
            if (!spec.needsTaskRate() || c.size == null) {
                chosen.put(c.device, null);
                continue;
            }
            Workload workload = Workload.planned(c.size, s.scale, s.tasks, s.codec);
            // The forks' settings (WriterSettings' defaults): the calibration is theirs, in this JVM.
            WriterConfig.Builder settings = WriterSettings.config(workload, WriterConfig.Builder.DEFAULT_THREADS,
                    BenchPlan.NO_LIMIT, s.sync);
            BalanceFit.Choice choice = BalanceFit.resolve(spec, workload, settings, TrialDirectory.base(),
                    TaskRateCache.standard(), err);
            chosen.put(c.device, choice.producer.isNone() ? null : choice.producer.toString());
            String line = "producer on " + c.device + ": " + choice;
            said.add(line);
            err.println(script + ": " + line);
        }
        return chosen.isEmpty() ? plan : plan.withProducers(chosen, said);
    }

    private long started;
    /** Whether the clean page cache is dropped before every wave (--drop-caches). */
    private boolean dropCaches;

    /** Whether the memory a wave takes is touched right before it (--prefault; dev.sluice.core.run.Prefault). */
    private boolean prefault = true;

    /** What happens before every wave, as environment.json records it. */
    private String gate() {
        return "sync, wait for Dirty + Writeback" + (dropCaches ? ", drop the clean page cache" : "")
                + (prefault ? ", prefault the memory the wave takes" : "");
    }

    private static boolean trueOrFalse(String name, String value) throws UsageException {
        if (!value.equals("true") && !value.equals("false")) {
            throw new UsageException("invalid " + name + " '" + value + "': allowed are true and false");
        }
        return value.equals("true");
    }

    /** --drop-caches: true or false; true needs /proc/sys/vm/drop_caches writable (root), checked before any file. */
    private static boolean dropCaches(String value) throws UsageException {
        trueOrFalse("--drop-caches", value);
        if (value.equals("true") && !Files.isWritable(GateState.DROP_CACHES)) {
            throw new UsageException("invalid --drop-caches 'true': " + GateState.DROP_CACHES + " is not writable "
                    + "here; dropping the page cache needs root");
        }
        return value.equals("true");
    }

    private void runAll(Plan plan) throws Exception {
        List<Configuration> configs = plan.configurations;
        List<RunDirectory.Config> named = directory.configs();
        long total = configs.stream().mapToLong(c -> c.weight).sum();
        // With a budget, the chunks go where they decide the most per second; without, each size runs its rounds once.
        ChunkSchedule schedule = plan.budget > 0 ? new DecidingSchedule(directory, plan.budget, new BudgetAllocation())
                : new WeightedShares(directory, plan.budget, new StoppingRule());
        int n = configs.size();
        int lastPaired = -1;
        for (int i = 0; i < n; i++) {
            if (configs.get(i).kind == Configuration.Kind.PAIRED) {
                lastPaired = i;
            }
        }
        // Seconds and weight of each configuration that ran, by kind: what the ones after the last paired configuration
        // are estimated from, so that the budget keeps their time (a raw write and the floors).
        Map<Configuration.Kind, List<double[]>> ran = new EnumMap<>(Configuration.Kind.class);
        long done = 0;
        started = now();
        err.println(script + ": " + n + " configurations into " + out);
        err.println(script + ": " + plan.header.get(0));
        if (!plan.design.equals(BenchPlan.OFF)) {
            err.println(script + ": " + plan.header.get(plan.header.size() - 1));
        }
        for (int i = 0; i < n; i++) {
            Configuration c = configs.get(i);
            String run = named.get(i).run;
            long elapsed = now() - started;
            String left = plan.budget > 0 ? Math.max(plan.budget - elapsed, 0) + "s of the " + plan.budget
                    + "s budget left" : done > 0 ? "about " + elapsed * (total - done) / done + "s left"
                    : "time left unknown yet";
            err.println(script + ": [" + (i + 1) + "/" + n + "] " + c.name + " (elapsed " + elapsed + "s, " + left
                    + ")");
            long t0 = now();
            switch (c.kind) {
                case NOISE_FLOOR:
                    results.put(c.name, jmh(Runs.noiseFloor(c, run)));
                    break;
                case SINGLE:
                    results.put(c.name, jmh(Runs.single(c, run)));
                    break;
                case RAW_WRITE:
                    long bytes = dataBytesPerTask(c.rawOf);
                    err.println(script + ":   " + BenchmarkParam.FILE_BYTES + " = " + bytes + " (" + c.rawOf + "'s "
                            + DATA_BYTES_PER_TASK + ")");
                    jmh(Runs.raw(c, run, bytes));
                    break;
                case FLOOR:
                    jmh(Runs.floor(c, run));
                    break;
                case PACED_WRITE:
                    long fileBytes = dataBytesPerTask(c.rawOf);
                    long pace = pace(fileBytes, c.size);
                    err.println(script + ":   " + BenchmarkParam.PACE + " = " + pace + " bytes/s per thread (" + fileBytes
                            + " bytes over " + c.size + "-floor's serialize + compress)");
                    jmh(Runs.paced(c, run, String.valueOf(fileBytes), String.valueOf(pace)));
                    break;
                case PAIRED:
                    String share = schedule.reach(named.get(i), t0 - started, done);
                    if (share != null) {
                        err.println(script + ":   " + share);
                    }
                    long reserve = 0;
                    if (plan.budget > 0 && i == lastPaired) {
                        reserve = tailReserve(configs.subList(i + 1, n), ran);
                        if (reserve > 0) {
                            err.println(script + ":   keeping " + reserve + "s of the budget for the " + (n - 1 - i)
                                    + " configurations after it, from the times of the same kinds before");
                        }
                    }
                    chunks(plan, schedule, reserve);
                    break;
                default:
                    throw new IllegalStateException("no runs for " + c.kind);
            }
            done += c.weight;
            long took = now() - t0;
            ran.computeIfAbsent(c.kind, k -> new ArrayList<>()).add(new double[] {took, c.weight});
            err.println(script + ": [" + (i + 1) + "/" + n + "] done in " + took + "s");
        }
    }

    /**
     * The seconds to keep for {@code tail}, the configurations that run after the budget's last chunk, from the
     * {@code [seconds, weight]} of the configurations of each kind that ran: the line through the last two of its kind
     * (a fixed cost, a JVM and the inputs, plus a cost growing with the bytes, as the weights do), extended to the
     * configuration's weight, never below the last one's seconds; the last one's seconds where only one ran; none for
     * a kind that has not run. (Scaling one point by the weights alone would count the fixed cost again for every
     * byte: 200 s kept for a small size's floors that took 5.)
     */
    static long tailReserve(List<Configuration> tail, Map<Configuration.Kind, List<double[]>> ran) {
        double seconds = 0;
        for (Configuration c : tail) {
            List<double[]> before = ran.getOrDefault(c.kind, List.of());
            if (before.isEmpty()) {
                continue;
            }
            double[] last = before.get(before.size() - 1);
            double estimate = last[0];
            if (before.size() > 1) {
                double[] previous = before.get(before.size() - 2);
                if (last[1] != previous[1]) {
                    double perWeight = Math.max(0, (last[0] - previous[0]) / (last[1] - previous[1]));
                    estimate = last[0] + perWeight * Math.max(0, c.weight - last[1]);
                }
            }
            seconds += estimate;
        }
        return (long) Math.ceil(seconds);
    }

    /**
     * The chunks the schedule asks for, until it has none for now; {@code reserve} seconds of the budget are kept for
     * what runs after them (the schedule sees them as spent).
     */
    private void chunks(Plan plan, ChunkSchedule schedule, long reserve) throws Exception {
        List<RunDirectory.Config> named = directory.configs();
        while (true) {
            ChunkSchedule.Step step = schedule.next(now() - started + reserve);
            if (step.kind == ChunkSchedule.Step.Kind.DONE) {
                return;
            }
            int place = named.indexOf(step.config);
            if (step.kind == ChunkSchedule.Step.Kind.STOP) {
                err.println(script + ": [" + (place + 1) + "/" + named.size() + "] " + step.config.name + " stopped: "
                        + step.decision.reason.text + ": " + step.decision.why);
                continue;
            }
            for (JmhRun r : Runs.chunk(plan.configurations.get(place), plan.design, step.config.run, step.chunk,
                    step.rounds)) {
                // The size too: with a budget, a chunk may go to any size reached so far.
                err.println(script + ":   " + step.config.name + " " + r.file.substring(step.config.run.length() + 1)
                        + ": " + r.benchmark.getSimpleName() + " -i " + r.iterations);
                jmh(r);
            }
        }
    }

    /**
     * The paced write's bytes per second per thread: a task's {@code fileBytes} over its size's CPU floor (serialize
     * + compress of the whole wave on every core), so that each thread's last byte is due when the floor's work ends.
     */
    private long pace(long fileBytes, String size) throws IOException {
        double cpuMs = directory.floorCpuMs(size).orElseThrow(() -> new IOException(size
                + "-floor has no serialize and compress results to pace the write by"));
        return Math.max(Bytes.MiB, Math.round(fileBytes * 1000.0 / cpuMs));
    }

    /** The data file's bytes per task of configuration {@code name}: of its first strategy where it is paired. */
    private long dataBytesPerTask(String name) throws IOException {
        Collection<RunResult> single = results.get(name);
        if (single == null) {
            return Math.round(directory.metric(name, DATA_BYTES_PER_TASK));
        }
        for (RunResult r : single) {
            if (r.getSecondaryResults().containsKey(DATA_BYTES_PER_TASK)) {
                return Math.round(r.getSecondaryResults().get(DATA_BYTES_PER_TASK).getScore());
            }
        }
        throw new IOException(name + " has no " + DATA_BYTES_PER_TASK);
    }

    /**
     * One JMH run: its result into {@code runs/FILE.json}, its output into {@code logs/FILE.log}, its wall time into
     * {@code timing.tsv}. A size's first strategy verifies its outputs row by row and records their digests in
     * {@code verified/}; the others' equal bytes are then verified by digest (dev.sluice.core.verify.VerifiedDigests).
     */
    private Collection<RunResult> jmh(JmhRun run) throws Exception {
        long t0 = System.nanoTime();
        Path log = out.resolve("logs").resolve(run.file + ".log");
        List<String> flags = new ArrayList<>(SluiceBenchmarks.forkFlags(run.params,
                out.resolve("verified").toString()));
        if (dropCaches) {
            flags.add("-D" + GateState.DROP_CACHES_PROPERTY + "=true");
        }
        if (prefault) {
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

    /** plan.txt: the header lines, then each configuration's name, weight and first JMH runs, as JMH would say them. */
    private void writePlan(Plan plan) throws IOException {
        List<String> lines = new ArrayList<>();
        plan.header.forEach(h -> lines.add("# " + h));
        List<RunDirectory.Config> named = directory.configs();
        for (int i = 0; i < plan.configurations.size(); i++) {
            Configuration c = plan.configurations.get(i);
            List<String> described = new ArrayList<>();
            Runs.planned(c, plan.design, named.get(i).run).forEach(r -> described.add(r.describe()));
            lines.add(c.name + "|" + c.weight + "|" + String.join("; ", described));
        }
        Files.write(out.resolve("plan.txt"), lines, StandardCharsets.UTF_8);
    }

    /** Refuses an --out that holds a run, an interrupted run's results (they would join this run's), or is a file. */
    private void checkOut(String given) throws UsageException, IOException {
        if (Files.exists(out.resolve("jmh-result.json"))) {
            throw new UsageException("invalid --out '" + given + "': it already holds a run (jmh-result.json)");
        }
        if (Files.exists(out) && !Files.isDirectory(out)) {
            throw new UsageException("invalid --out '" + given + "': it exists and is not a directory");
        }
        Path runs = out.resolve("runs");
        if (Files.isDirectory(runs)) {
            try (Stream<Path> files = Files.list(runs)) {
                if (files.anyMatch(f -> f.getFileName().toString().endsWith(".json"))) {
                    throw new UsageException("invalid --out '" + given + "': it holds an interrupted run's results "
                            + "(runs/*.json); remove that run or choose another --out");
                }
            }
        }
    }

    /** The repository's commit, marked where tracked files have changes; {@code unknown} outside a git checkout. */
    private String commit() {
        String head = git("rev-parse", "HEAD");
        if (head == null || head.isBlank()) {
            return "unknown";
        }
        String status = git("status", "--porcelain");
        boolean changed = status != null && status.lines().anyMatch(l -> !l.startsWith("??"));
        return head.trim() + (changed ? " (with uncommitted changes)" : "");
    }

    private String git(String... args) {
        List<String> command = new ArrayList<>(List.of("git", "-C", root.toString()));
        command.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String text;
            try (InputStream in = p.getInputStream()) {
                text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            return p.waitFor() == 0 ? text : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** The usage text (bench-usage.txt beside this class). */
    static String usage() throws IOException {
        try (InputStream in = BenchRunner.class.getResourceAsStream("bench-usage.txt")) {
            if (in == null) {
                throw new IOException("bench-usage.txt is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Seconds since the epoch, as the run's progress counts them. */
    private static long now() {
        return System.currentTimeMillis() / 1000;
    }
}
