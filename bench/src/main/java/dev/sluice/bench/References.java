package dev.sluice.bench;

import dev.sluice.report.RunTiming;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.Optional;

/**
 * How a run's references (raw writes, floors, paced writes) run: each copied from the reference cache where it holds
 * the same JMH run on this machine, build and storage, and named in {@code cache.tsv}; else run, and kept there.
 * Without a cache (--references measured, or the cache off) every one runs.
 */
final class References {
    /** Null: every reference is measured. */
    private final ReferenceCache cache;
    private final JmhInvoker invoker;
    private final Path out;
    /** The commit the run measures, for what the cache keeps. */
    private final String commit;
    private final PrintStream err;
    private final String script;

    References(ReferenceCache cache, JmhInvoker invoker, Path out, String commit, PrintStream err, String script) {
        this.cache = cache;
        this.invoker = invoker;
        this.out = out;
        this.commit = commit;
        this.err = err;
        this.script = script;
    }

    /** Runs {@code run}, or copies its result from the cache. */
    void run(JmhRun run) throws Exception {
        if (cache == null) {
            invoker.run(run);
            return;
        }
        Path result = out.resolve("runs").resolve(run.file + ".json");
        Map<String, String> key = ReferenceCache.key(run);
        Optional<ReferenceCache.Entry> kept = cache.find(key);
        if (kept.isPresent()) {
            Files.copy(kept.get().result(), result);
            Files.writeString(out.resolve(RunTiming.CACHED), run.file + "\t" + kept.get().made() + "\t"
                    + kept.get().result().getFileName() + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            err.println(script + ":   from the reference cache (measured " + kept.get().made() + ")");
            return;
        }
        invoker.run(run);
        cache.store(key, result, ReferenceCache.made(commit));
    }
}
