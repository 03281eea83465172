package dev.sluice.bench;

import dev.sluice.bench.Plan.Configuration;
import dev.sluice.report.BudgetAllocation;
import dev.sluice.report.ReportTools;
import dev.sluice.report.RunDirectory;
import dev.sluice.report.StoppingRule;
import dev.sluice.spi.InvalidParameterException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;

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

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        BenchRunner runner = new BenchRunner();
        int status;
        try {
            status = runner.run(List.of(args));
        } catch (RunnerOptions.UsageException e) {
            status = runner.usageError(e.getMessage());
        } catch (InvalidParameterException e) {
            status = runner.usageError("invalid " + e.parameter() + " '" + e.value() + "': allowed is " + e.allowed());
        } catch (JmhInvoker.BenchmarkFailed e) {
            status = 1;
        } catch (Exception e) {
            System.err.println(runner.script + ": " + e);
            status = 1;
        }
        System.exit(status);
    }

    private int usageError(String message) {
        err.println(script + ": " + message);
        err.println(script + ": see '" + script + " --help'");
        return 2;
    }

    int run(List<String> args) throws Exception {
        RunnerOptions options = RunnerOptions.parse(args);
        if (options.help) {
            System.out.print(RunnerOptions.usage());
            return 0;
        }
        String given = options.out;
        Plan plan = ProducerChoices.choose(BenchPlan.plan(options.planArgs), err, script);
        out = given != null ? Paths.get(given) : root.resolve("bench/target/bench").resolve(plan.preset + "-"
                + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        RunnerOptions.checkOut(out, given != null ? given : out.toString());
        // The code measured is the code at the start.
        String commit = Provenance.commit(root);
        Files.createDirectories(out.resolve("runs"));
        Files.createDirectories(out.resolve("logs"));
        out = out.toAbsolutePath().normalize();
        directory = plan.directory(out);
        invoker = new JmhInvoker(out, directory, options, err, script);
        references = new References(options.cachedReferences(plan.budget) ? ReferenceCache.standard() : null,
                invoker, directory, out, commit, err, script);
        JmhInvoker.forkClassPathWithout(BenchRunner.class);
        Runs.writePlan(out, plan, directory.configs());
        runAll(plan);
        directory.writeResults();
        Path result = out.resolve("jmh-result.json");
        Path environment = out.resolve("environment.json");
        ReportTools.environment(environment, Paths.get(System.getenv().getOrDefault("TMPDIR", "/tmp")),
                System.getProperty("java.vendor") + " " + System.getProperty("java.vm.version"), commit, result,
                options.gate());
        Path report = plan.preset.equals("balance") ? ReportTools.balance(result, out.resolve("report"))
                : ReportTools.report(result, out.resolve("report"), environment);
        // A run along the partition or memory axis: a page per axis, which is then the report to read first.
        for (Path page : ReportTools.axes(result, out.resolve("report"))) {
            err.println(script + ": " + page + ": the strategies along an axis");
            report = page;
        }
        err.println(script + ": finished " + plan.configurations.size() + " configurations in " + (now() - started)
                + "s");
        System.out.println(report);
        return 0;
    }

    /** How the references run: from the reference cache where it has them (--references cached), else measured. */
    private References references;
    /** When the run started (seconds since the epoch), as its progress counts. */
    private long started;
    private JmhInvoker invoker;

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
        // What ran took: the ones after the last chunk (a raw write, the floors) are estimated from it.
        KindTimes ran = new KindTimes();
        // Under a budget, the references the cache does not hold wait for the comparisons (References).
        boolean mayWait = plan.budget > 0 && references.caches();
        List<Integer> waiting = new ArrayList<>();
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
            boolean measured = true;
            switch (c.kind) {
                case NOISE_FLOOR:
                    results.put(c.name, invoker.run(Runs.noiseFloor(c, run)));
                    break;
                case SINGLE:
                    results.put(c.name, invoker.run(Runs.single(c, run)));
                    break;
                case RAW_WRITE:
                case FLOOR:
                case PACED_WRITE:
                    // A paced write waits with its floor.
                    Optional<JmhRun> reference = references.build(c, run, results);
                    if (reference.isEmpty() && mayWait) {
                        err.println(script + ":   its floor " + c.size + "-floor waits, and so does it");
                    }
                    measured = reference.isPresent() ? references.run(reference.get(), mayWait) : false;
                    if (!measured) {
                        if (!mayWait) {
                            throw new IOException(c.size + "-floor has no serialize and compress results to pace "
                                    + c.name + " by");
                        }
                        waiting.add(i);
                    }
                    break;
                case PAIRED:
                    String share = schedule.reach(named.get(i), t0 - started, done);
                    if (share != null) {
                        err.println(script + ":   " + share);
                    }
                    long reserve = 0;
                    if (plan.budget > 0 && i == lastPaired) {
                        reserve = ran.estimate(configs.subList(i + 1, n));
                        if (!waiting.isEmpty()) {
                            reserve += Math.round(References.SHARE * plan.budget);
                        }
                        if (reserve > 0) {
                            err.println(script + ":   keeping " + reserve + "s of the budget for the " + (n - 1 - i)
                                    + " configurations after it" + (waiting.isEmpty() ? "" : " and the "
                                    + waiting.size() + " references waiting"));
                        }
                    }
                    chunks(plan, schedule, reserve);
                    break;
                default:
                    throw new IllegalStateException("no runs for " + c.kind);
            }
            done += c.weight;
            long took = now() - t0;
            if (measured) {
                ran.add(c.kind, took, c.weight);
            }
            err.println(script + ": [" + (i + 1) + "/" + n + "] " + (measured ? "done in " + took + "s" : "waits"));
        }
        runWaiting(plan, waiting, ran);
    }

    /**
     * The references that waited for the comparisons, in the plan's order, while the budget lasts
     * ({@link References#fits}); the others are named in unmeasured.tsv.
     */
    private void runWaiting(Plan plan, List<Integer> waiting, KindTimes ran)
            throws Exception {
        List<RunDirectory.Config> named = directory.configs();
        for (int i : waiting) {
            Configuration c = plan.configurations.get(i);
            String run = named.get(i).run;
            long left = plan.budget - (now() - started);
            long estimate = ran.estimate(List.of(c));
            err.println(script + ": [" + (i + 1) + "/" + named.size() + "] " + c.name + ", waiting (" + Math.max(left, 0)
                    + "s of the budget left" + (estimate > 0 ? ", estimated " + estimate + "s" : "") + ")");
            if (!References.fits(estimate, left)) {
                references.unmeasured(run, left <= 0 ? "the budget was spent" : "estimated " + estimate + " s, "
                        + left + " s of the budget left");
                continue;
            }
            Optional<JmhRun> reference = references.build(c, run, results);
            if (reference.isEmpty()) {
                references.unmeasured(run, "its floor " + c.size + "-floor was not measured");
                continue;
            }
            long t0 = now();
            references.run(reference.get(), false);
            long took = now() - t0;
            ran.add(c.kind, took, c.weight);
            err.println(script + ": [" + (i + 1) + "/" + named.size() + "] done in " + took + "s");
        }
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
                invoker.run(r);
            }
        }
    }

    /** Seconds since the epoch, as the run's progress counts them. */
    private static long now() {
        return System.currentTimeMillis() / 1000;
    }
}
