package dev.sluice.bench;

import dev.sluice.core.device.TaskRateCache;
import dev.sluice.core.file.AtomicReplace;
import dev.sluice.jmh.state.TrialDirectory;
import dev.sluice.jmh.write.RawWriteBenchmark;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The references of a run (raw writes, floors, paced writes) kept per machine, build, storage and JMH run, so that a
 * budgeted run's time goes to its comparisons: a reference measured once is copied into a later run's {@code runs/}
 * from here, and the run directory's {@code cache.tsv} says which came from where. An entry is found only under the
 * same key: another machine or kernel, a benchmarks.jar whose code differs but in the strategies ({@link #code}),
 * other storage under the run's files, or any other parameter of the JMH run (its benchmark, every parameter, warm-ups
 * and iterations: {@link JmhRun#describe}) misses, and the reference is measured again and kept. One directory:
 * {@code -Dsluice.referenceCache=DIR}, else {@code $SLUICE_REFERENCE_CACHE}, else
 * {@code $XDG_CACHE_HOME/sluice/references} (or {@code ~/.cache/...}); {@code off} keeps nothing.
 */
final class ReferenceCache {
    static final String PROPERTY = "sluice.referenceCache";
    static final String ENV = "SLUICE_REFERENCE_CACHE";

    /** A kept reference: its JMH result, and what the cache says of how it was made. */
    record Entry(Path result, String made) {}

    private final Path dir;

    ReferenceCache(Path dir) {
        this.dir = dir;
    }

    /** The cache the property, the environment or the user's cache directory names; null where it is off. */
    static ReferenceCache standard() {
        String given = System.getProperty(PROPERTY);
        if (given == null || given.isBlank()) {
            given = System.getenv(ENV);
        }
        if (given != null && !given.isBlank()) {
            return given.trim().equals(TaskRateCache.OFF) ? null : new ReferenceCache(Paths.get(given.trim()));
        }
        return new ReferenceCache(TaskRateCache.userCacheDir().resolve("references"));
    }

    Path dir() {
        return dir;
    }

    /**
     * The code of this process's benchmarks ({@link #code}), read once: the jar does not change under a running
     * process, and a digest of it reads all of its 20 MB.
     */
    private static String benchmarksCode;

    /** The key of {@code run} on this machine, with this code of the benchmarks, on the storage under its files. */
    static Map<String, String> key(JmhRun run) throws IOException {
        Map<String, String> key = new LinkedHashMap<>(TaskRateCache.machine());
        key.put("code", benchmarksCode());
        key.put("storage", TaskRateCache.storage(TrialDirectory.base()));
        key.put("run", run.describe());
        return key;
    }

    private static synchronized String benchmarksCode() throws IOException {
        if (benchmarksCode == null) {
            benchmarksCode = code(RawWriteBenchmark.class);
        }
        return benchmarksCode;
    }

    /** The entries of benchmarks.jar no reference runs: the strategies, which the paired waves alone run. */
    static final String NOT_RUN = "dev/sluice/strategy/";

    /**
     * The code the references run, by content: a digest of every entry of the jar {@code benchmark} is in
     * (benchmarks.jar: Sluice's core, the benchmarks, the libraries) but the strategies' ({@link #NOT_RUN}), so that a
     * rebuild, or a change to a strategy alone, keeps the cache, and any other change measures the references again.
     * Where the benchmarks are class directories (the tests), the class file's size and time
     * ({@link TaskRateCache#code}).
     */
    static String code(Class<?> benchmark) throws IOException {
        Path source;
        try {
            source = Paths.get(benchmark.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (Exception e) {
            return TaskRateCache.code(List.of(benchmark));
        }
        return Files.isRegularFile(source) ? jarDigest(source) : TaskRateCache.code(List.of(benchmark));
    }

    /** {@code jar}'s name and a SHA-256 over its entries' names and contents in name order, less {@link #NOT_RUN}. */
    static String jarDigest(Path jar) throws IOException {
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            List<? extends ZipEntry> entries = zip.stream().filter(e -> !e.isDirectory()
                    && !e.getName().startsWith(NOT_RUN)).sorted(Comparator.comparing(ZipEntry::getName)).toList();
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (ZipEntry e : entries) {
                digest.update(e.getName().getBytes(StandardCharsets.UTF_8));
                digest.update((byte) 0);
                try (InputStream in = zip.getInputStream(e)) {
                    digest.update(in.readAllBytes());
                }
            }
            return jar.getFileName() + " " + entries.size() + " entries but " + NOT_RUN + ", sha-256 "
                    + HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The reference kept under exactly {@code key}, if any. */
    Optional<Entry> find(Map<String, String> key) throws IOException {
        String id = id(key);
        Path result = dir.resolve(id + ".json");
        Path text = dir.resolve(id + ".key");
        if (!Files.isRegularFile(result) || !Files.isRegularFile(text)) {
            return Optional.empty();
        }
        String[] kept = Files.readString(text, StandardCharsets.UTF_8).split("\n# made: ", 2);
        if (kept.length != 2 || !kept[0].equals(TaskRateCache.text(key).stripTrailing())) {
            return Optional.empty();
        }
        return Optional.of(new Entry(result, kept[1].strip()));
    }

    /** Keeps {@code result} under {@code key}, said to be {@code made} (when and at which commit). */
    void store(Map<String, String> key, Path result, String made) throws IOException {
        Files.createDirectories(dir);
        String id = id(key);
        AtomicReplace.write(dir.resolve(id + ".json"), Files.readAllBytes(result));
        AtomicReplace.write(dir.resolve(id + ".key"), (TaskRateCache.text(key).stripTrailing() + "\n# made: " + made + "\n")
                .getBytes(StandardCharsets.UTF_8));
    }

    /** What a reference measured now is said to be: when, and the commit of the code that measured it. */
    static String made(String commit) {
        return Instant.now() + " at " + commit;
    }

    static String id(Map<String, String> key) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(TaskRateCache.text(key)
                    .getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
