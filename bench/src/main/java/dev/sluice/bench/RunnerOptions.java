package dev.sluice.bench;

import dev.sluice.jmh.state.GateState;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The options of scripts/bench.sh as the runner takes them: its own ({@code --out}, {@code --drop-caches},
 * {@code --prefault}; {@code --jdk} is the launcher's, accepted and not used) and the plan's, which it passes on to
 * {@link BenchPlan}. Every one is checked before any file is made.
 */
final class RunnerOptions {
    /** The options that take a value, as typed ({@link BenchOption}). */
    static final List<String> OPTIONS = java.util.Arrays.stream(BenchOption.values()).map(BenchOption::flag).toList();

    /** A usage error: exit status 2. */
    static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    static final String CACHED = "cached";
    static final String MEASURED = "measured";

    /** The plan's options, as {@code --name value} pairs. */
    final List<String> planArgs = new ArrayList<>();
    /** {@code --out} as given; null for the default. */
    String out;
    /** Whether the clean page cache is dropped before every wave (--drop-caches). */
    boolean dropCaches;
    /** Whether the memory a wave takes is touched right before it (--prefault; dev.sluice.core.run.Prefault). */
    boolean prefault = true;
    /** --references: cached or measured; null for the default (cached under a budget, measured without). */
    String references;
    /** Whether --help was asked for: nothing else is done. */
    boolean help;

    static RunnerOptions parse(List<String> args) throws UsageException {
        RunnerOptions options = new RunnerOptions();
        for (int i = 0; i < args.size(); i += 2) {
            String name = args.get(i);
            if (name.equals("--help") || name.equals("-h")) {
                options.help = true;
                return options;
            }
            java.util.Optional<BenchOption> option = BenchOption.of(name);
            if (option.isEmpty()) {
                throw new UsageException("unknown argument '" + name + "': allowed are " + String.join(", ", OPTIONS)
                        + ", --help");
            }
            if (i + 1 >= args.size() || args.get(i + 1).isEmpty()) {
                throw new UsageException(name + " needs a value");
            }
            String value = args.get(i + 1);
            switch (option.get()) {
                case OUT -> options.out = value;
                case DROP_CACHES -> options.dropCaches = dropCaches(value);
                case PREFAULT -> options.prefault = trueOrFalse(name, value);
                case REFERENCES -> options.references = references(value);
                case JDK -> { } // the launcher's
                default -> options.planArgs.addAll(List.of(name, value));
            }
        }
        return options;
    }

    /** What happens before every wave, as environment.json records it. */
    String gate() {
        return "sync, wait for Dirty + Writeback" + (dropCaches ? ", drop the clean page cache" : "")
                + (prefault ? ", prefault the memory the wave takes" : "");
    }

    private static boolean trueOrFalse(String name, String value) throws UsageException {
        if (!value.equals("true") && !value.equals("false")) {
            throw new UsageException("invalid " + name + " '" + value + "': allowed are true and false");
        }
        return value.equals("true");
    }

    /** --references: cached or measured. */
    private static String references(String value) throws UsageException {
        if (!value.equals(CACHED) && !value.equals(MEASURED)) {
            throw new UsageException("invalid --references '" + value + "': allowed are " + CACHED + " and "
                    + MEASURED);
        }
        return value;
    }

    /** Whether a run of {@code budget} seconds (0: none) takes its references from the cache. */
    boolean cachedReferences(long budget) {
        return references == null ? budget > 0 : references.equals(CACHED);
    }

    /** --drop-caches: true or false; true needs /proc/sys/vm/drop_caches writable (root), checked before any file. */
    private static boolean dropCaches(String value) throws UsageException {
        trueOrFalse(BenchOption.DROP_CACHES.flag(), value);
        if (value.equals("true") && !Files.isWritable(GateState.DROP_CACHES)) {
            throw new UsageException("invalid --drop-caches 'true': " + GateState.DROP_CACHES + " is not writable "
                    + "here; dropping the page cache needs root");
        }
        return value.equals("true");
    }

    /** The usage text (bench-usage.txt beside this class). */
    static String usage() throws IOException {
        try (InputStream in = RunnerOptions.class.getResourceAsStream("bench-usage.txt")) {
            if (in == null) {
                throw new IOException("bench-usage.txt is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Refuses an --out that holds a run, an interrupted run's results (they would join this run's), or is a file. */
    static void checkOut(Path out, String given) throws UsageException, IOException {
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
}
