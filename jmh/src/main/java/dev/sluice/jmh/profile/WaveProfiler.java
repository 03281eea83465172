package dev.sluice.jmh.profile;

import dev.sluice.core.run.BenchmarkParam;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import one.profiler.AsyncProfiler;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.profile.ProfilerException;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.TextResult;
import org.openjdk.jmh.runner.IterationType;

/**
 * {@code -prof "dev.sluice.jmh.profile.WaveProfiler:libPath=LIB;event=cpu;dir=DIR"}: async-profiler (the library of its
 * Maven jar, which the build unpacks) over the measured waves and nothing else: it runs from the moment a measured
 * wave starts until it ends ({@link WaveWindow}), so input generation, the gate's flush, the reduce-side read,
 * verification and removal stay out of the profile. JMH's own {@code -prof async} profiles whole iterations and names
 * its directory after every parameter, which passes what a file system allows with this project's parameters.
 *
 * <p>Writes into DIR, per trial ({@code TRIAL} is its strategy, size and tasks, e.g. {@code buffered-small-2tasks}):
 * {@code TRIAL-flame.html} and {@code TRIAL-flame-reverse.html} (flame graphs), {@code TRIAL-collapsed.txt} (one line
 * per stack, {@code frame;frame;... samples}, for scripts). Events: cpu, alloc, wall, lock, and page-faults (the
 * kernel's software event: one sample per page fault, with the Java stack that touched the page). With {@code perWave=true}
 * it writes instead one {@code TRIAL-wave-N-collapsed.txt} per measured wave (N from 1, in the order of JMH's
 * iterations), so that a slow wave's profile can be set beside a fast one's: a profile of all waves together shows
 * what every wave does, not what a slow one does more.
 * {@code java -cp benchmarks.jar dev.sluice.jmh.profile.WaveProfiler STRATEGY SIZE TASKS} prints the TRIAL a run with those
 * parameters writes, so that scripts/profile.sh replaces exactly its own files and nothing else.
 */
public final class WaveProfiler implements InternalProfiler, WaveWindow.Listener {
    private static final List<String> EVENTS = List.of("cpu", "alloc", "wall", "lock", "page-faults");

    private final AsyncProfiler profiler;
    private final String event;
    private final Path dir;
    private final boolean perWave;
    private boolean started;
    private int measured;
    private String trial;

    public WaveProfiler(String initLine) throws ProfilerException {
        Map<String, String> options = new LinkedHashMap<>();
        for (String option : initLine.split(";")) {
            if (option.isBlank()) {
                continue;
            }
            int eq = option.indexOf('=');
            if (eq <= 0) {
                throw new ProfilerException("invalid WaveProfiler option '" + option + "': allowed are libPath=FILE, "
                        + "event=" + String.join("|", EVENTS) + ", dir=DIR, perWave=true|false");
            }
            options.put(option.substring(0, eq).trim(), option.substring(eq + 1).trim());
        }
        for (String name : options.keySet()) {
            if (!List.of("libPath", "event", "dir", "perWave").contains(name)) {
                throw new ProfilerException("unknown WaveProfiler option '" + name + "': allowed are libPath, event, "
                        + "dir, perWave");
            }
        }
        String waves = options.getOrDefault("perWave", "false");
        if (!waves.equals("true") && !waves.equals("false")) {
            throw new ProfilerException("invalid WaveProfiler perWave '" + waves + "': allowed are true, false");
        }
        perWave = Boolean.parseBoolean(waves);
        String lib = options.get("libPath");
        if (lib == null || !new File(lib).isFile()) {
            throw new ProfilerException("invalid WaveProfiler libPath '" + lib + "': allowed is async-profiler's "
                    + "library file (the build unpacks it to jmh/target/async-profiler/linux-x64/libasyncProfiler.so)");
        }
        event = options.getOrDefault("event", "cpu");
        if (!EVENTS.contains(event)) {
            throw new ProfilerException("invalid WaveProfiler event '" + event + "': allowed are "
                    + String.join(", ", EVENTS));
        }
        dir = Paths.get(options.getOrDefault("dir", "."));
        try {
            Files.createDirectories(dir);
            profiler = AsyncProfiler.getInstance(lib);
        } catch (IOException | RuntimeException | UnsatisfiedLinkError e) {
            throw new ProfilerException("async-profiler could not start from " + lib + ": " + e.getMessage());
        }
    }

    @Override
    public String getDescription() {
        return "async-profiler over the measured waves only: flame graphs and collapsed stacks";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        trial = trialName(benchmarkParams);
        WaveWindow.listen(iterationParams.getType() == IterationType.MEASUREMENT ? this : null);
    }

    @Override
    public void opened() {
        // "start" clears what was sampled before; "resume" keeps it.
        execute((started && !perWave ? "resume" : "start") + ",event=" + event);
        started = true;
    }

    @Override
    public void closed() {
        execute("stop");
        if (perWave) {
            execute("collapsed,event=" + event + ",file="
                    + dir.resolve(trial + "-wave-" + (measured + 1) + "-collapsed.txt").toAbsolutePath());
        }
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                       IterationResult result) {
        WaveWindow.listen(null);
        if (iterationParams.getType() != IterationType.MEASUREMENT || ++measured < iterationParams.getCount()
                || !started) {
            return Collections.emptyList();
        }
        if (perWave) {
            return Collections.singletonList(new TextResult("sluice wave profile (" + event + ", one per measured "
                    + "wave): " + dir.resolve(trial + "-wave-N-collapsed.txt").toAbsolutePath() + ", N = 1 to "
                    + measured + "\n", "wave-profile"));
        }
        List<String> files = new ArrayList<>();
        for (String[] output : List.of(new String[] {"flamegraph", "flame.html"},
                new String[] {"flamegraph,reverse", "flame-reverse.html"}, new String[] {"collapsed", "collapsed.txt"})) {
            Path file = dir.resolve(trial + "-" + output[1]).toAbsolutePath();
            execute(output[0] + ",event=" + event + ",file=" + file);
            files.add(file.toString());
        }
        return Collections.singletonList(new TextResult("sluice wave profile (" + event + ", measured waves only):\n  "
                + String.join("\n  ", files) + "\n", "wave-profile"));
    }

    /**
     * The trial's strategy, record format or serializer, size and tasks where it has them (a wave's, a GPU map task's),
     * else the benchmark's name.
     */
    static String trialName(BenchmarkParams params) {
        String[] name = params.getBenchmark().split("\\.");
        Map<String, String> values = new LinkedHashMap<>();
        for (String key : TRIAL_KEYS) {
            values.put(key, params.getParam(key));
        }
        return trialName(values, name[Math.max(0, name.length - 2)]);
    }

    /** The parameters a trial's files are named after, in this order. */
    private static final List<String> TRIAL_KEYS = List.of(BenchmarkParam.STRATEGY.key(), BenchmarkParam.FORMAT.key(), BenchmarkParam.SERIALIZER.key(), BenchmarkParam.SIZE.key(), BenchmarkParam.TASKS.key());

    /**
     * The values of {@link #TRIAL_KEYS} joined (absent or null where the benchmark has no such parameter), else
     * {@code benchmark}.
     */
    static String trialName(Map<String, String> values, String benchmark) {
        List<String> parts = new ArrayList<>();
        for (String key : TRIAL_KEYS) {
            String value = values.get(key);
            if (value != null) {
                parts.add(key.equals(BenchmarkParam.TASKS.key()) ? value + "tasks" : value);
            }
        }
        if (parts.isEmpty()) {
            parts.add(benchmark);
        }
        return String.join("-", parts).replaceAll("[^A-Za-z0-9._-]", "_");
    }

    /** Prints the TRIAL of a ShuffleWriteBenchmark run with the strategy, size and tasks given, as given to JMH. */
    public static void main(String[] args) {
        if (args.length != 3) {
            System.err.println("usage: WaveProfiler STRATEGY SIZE TASKS (prints the TRIAL its files are named after)");
            System.exit(2);
        }
        Map<String, String> values = new LinkedHashMap<>();
        values.put(BenchmarkParam.STRATEGY.key(), args[0]);
        values.put(BenchmarkParam.SIZE.key(), args[1]);
        values.put(BenchmarkParam.TASKS.key(), args[2]);
        System.out.println(trialName(values, "ShuffleWriteBenchmark"));
    }

    private String execute(String command) {
        try {
            return profiler.execute(command);
        } catch (IOException e) {
            throw new IllegalStateException("async-profiler failed on '" + command + "': " + e.getMessage(), e);
        }
    }
}
