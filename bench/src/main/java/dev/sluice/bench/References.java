package dev.sluice.bench;

import dev.sluice.bench.Plan.Configuration;
import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.core.run.Metric;
import dev.sluice.report.RunDirectory;
import dev.sluice.report.RunTiming;
import dev.sluice.spi.Bytes;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.openjdk.jmh.results.RunResult;

/**
 * How a run's references (raw writes, floors, paced writes) run: each copied from the reference cache where it holds
 * the same JMH run on this machine, build and storage, and named in {@code cache.tsv}; else run, and kept there.
 * Without a cache (--references measured, or the cache off) every one runs.
 *
 * <p>Under a budget a reference the cache does not hold waits ({@link #run(JmhRun, boolean)} with {@code mayWait}):
 * the comparisons run first, keeping {@link #SHARE} of the budget, and the runner measures the waiting ones after
 * them with what is left ({@link #fits}); one that does not fit is named in {@code unmeasured.tsv} and measured by the
 * next run of the same build, before any it measured already, since those are then in the cache.
 */
final class References {
    /**
     * The share of a budget the comparisons leave for the references that wait, once one waits: issue 46's bar for
     * what the references may cost a budgeted run.
     */
    static final double SHARE = 0.05;

    /** The secondary result the raw write takes its size from (WaveFigures writes it): a data file's bytes per task. */
    static final String DATA_BYTES_PER_TASK = Metric.WAVE_DATA_BYTES_PER_TASK.key();

    /** Null: every reference is measured. */
    private final ReferenceCache cache;
    private final JmhInvoker invoker;
    private final RunDirectory directory;
    private final Path out;
    /** The commit the run measures, for what the cache keeps. */
    private final String commit;
    private final PrintStream err;
    private final String script;

    References(ReferenceCache cache, JmhInvoker invoker, RunDirectory directory, Path out, String commit,
               PrintStream err, String script) {
        this.cache = cache;
        this.invoker = invoker;
        this.directory = directory;
        this.out = out;
        this.commit = commit;
        this.err = err;
        this.script = script;
    }

    /** Whether a reference may wait for the comparisons: there is a cache for what it measures. */
    boolean caches() {
        return cache != null;
    }

    /**
     * The JMH run of reference configuration {@code c} in file {@code run}: a raw write of as many bytes as its
     * {@link Configuration#rawOf} wrote per task ({@code single}: the results of the configurations run alone, by
     * name), a floor, or a paced write at its size's floor; empty for a paced write whose floor has no result (it
     * waited, or did not fit).
     */
    Optional<JmhRun> build(Configuration c, String run, Map<String, Collection<RunResult>> single) throws IOException {
        switch (c.kind) {
            case RAW_WRITE:
                long bytes = dataBytesPerTask(c.rawOf, single);
                err.println(script + ":   " + BenchmarkParam.FILE_BYTES + " = " + bytes + " (" + c.rawOf + "'s "
                        + DATA_BYTES_PER_TASK + ")");
                return Optional.of(Runs.raw(c, run, bytes));
            case FLOOR:
                return Optional.of(Runs.floor(c, run));
            case PACED_WRITE:
                OptionalDouble cpuMs = directory.floorCpuMs(c.size);
                if (cpuMs.isEmpty()) {
                    return Optional.empty();
                }
                long fileBytes = dataBytesPerTask(c.rawOf, single);
                // Each thread's last byte is due when the floor's serialize + compress of the whole wave ends.
                long pace = Math.max(Bytes.MiB, Math.round(fileBytes * 1000.0 / cpuMs.getAsDouble()));
                err.println(script + ":   " + BenchmarkParam.PACE + " = " + pace + " bytes/s per thread (" + fileBytes
                        + " bytes over " + c.size + "-floor's serialize + compress)");
                return Optional.of(Runs.paced(c, run, String.valueOf(fileBytes), String.valueOf(pace)));
            default:
                throw new IllegalArgumentException(c.name + " is no reference");
        }
    }

    /**
     * Runs {@code run}, or copies its result from the cache; where the cache does not hold it and {@code mayWait},
     * neither: false, and the caller runs it later with {@code mayWait} false. True where its result is in the run.
     */
    boolean run(JmhRun run, boolean mayWait) throws Exception {
        if (cache == null) {
            invoker.run(run);
            return true;
        }
        Path result = out.resolve("runs").resolve(run.file + ".json");
        Map<String, String> key = ReferenceCache.key(run);
        Optional<ReferenceCache.Entry> kept = cache.find(key);
        if (kept.isPresent()) {
            Files.copy(kept.get().result(), result);
            Files.writeString(out.resolve(RunTiming.CACHED), run.file + "\t" + kept.get().made() + "\t"
                    + kept.get().result().getFileName() + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            err.println(script + ":   from the reference cache (measured " + kept.get().made() + ")");
            return true;
        }
        if (mayWait) {
            err.println(script + ":   not in the reference cache: measured after the comparisons, with what is left "
                    + "of the budget");
            return false;
        }
        invoker.run(run);
        cache.store(key, result, ReferenceCache.made(commit));
        return true;
    }

    /**
     * Whether a waiting reference of {@code estimate} seconds (from those of its kind that ran before, 0 where none
     * has) starts with {@code left} seconds of the budget: while any is left and the estimate fits. The first of a
     * kind, with nothing to go by, starts whenever any is left.
     */
    static boolean fits(long estimate, long left) {
        return left > 0 && estimate <= left;
    }

    /** Names a reference that was not measured, and why, in the run directory's {@code unmeasured.tsv}. */
    void unmeasured(String file, String why) throws IOException {
        err.println(script + ":   " + file + " not measured: " + why);
        Files.writeString(out.resolve(RunTiming.UNMEASURED), file + "\t" + why + "\n", StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }

    /** The data file's bytes per task of configuration {@code name}: of its first strategy where it is paired. */
    private long dataBytesPerTask(String name, Map<String, Collection<RunResult>> single) throws IOException {
        Collection<RunResult> alone = single.get(name);
        if (alone == null) {
            return Math.round(directory.metric(name, DATA_BYTES_PER_TASK));
        }
        for (RunResult r : alone) {
            if (r.getSecondaryResults().containsKey(DATA_BYTES_PER_TASK)) {
                return Math.round(r.getSecondaryResults().get(DATA_BYTES_PER_TASK).getScore());
            }
        }
        throw new IOException(name + " has no " + DATA_BYTES_PER_TASK);
    }
}
