package dev.sluice.core.device;

import dev.sluice.core.file.AtomicReplace;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Task rates a harness measured, kept per machine, harness and configuration so that a run does not measure again
 * what an earlier one did: an entry is found only under the same key, so a change of any part of it (another machine
 * or kernel, a rebuilt harness, other tasks, scale, codec, producer, writer threads or storage) misses and the rate is
 * measured anew. One properties file: {@code -Dsluice.taskRateCache=FILE}, else {@code $SLUICE_TASK_RATE_CACHE}, else
 * {@code $XDG_CACHE_HOME/sluice/task-rates.properties} (or {@code ~/.cache/...}); {@code off} keeps nothing.
 */
public final class TaskRateCache {
    public static final String PROPERTY = "sluice.taskRateCache";
    public static final String ENV = "SLUICE_TASK_RATE_CACHE";
    public static final String OFF = "off";

    /** Null: caching is off. */
    private final Path file;

    public TaskRateCache(Path file) {
        this.file = file;
    }

    /** The cache the property, the environment or the user's cache directory names. */
    public static TaskRateCache standard() {
        String given = System.getProperty(PROPERTY);
        if (given == null || given.isBlank()) {
            given = System.getenv(ENV);
        }
        if (given != null && !given.isBlank()) {
            return new TaskRateCache(given.trim().equals(OFF) ? null : Paths.get(given.trim()));
        }
        return new TaskRateCache(userCacheDir().resolve("task-rates.properties"));
    }

    /** Sluice's directory in the user's cache: {@code $XDG_CACHE_HOME/sluice}, else {@code ~/.cache/sluice}. */
    public static Path userCacheDir() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path dir = xdg != null && !xdg.isBlank() ? Paths.get(xdg) : Paths.get(System.getProperty("user.home"), ".cache");
        return dir.resolve("sluice");
    }

    /** Where the entries are kept; null when caching is off. */
    public Path file() {
        return file;
    }

    /** The key's text, one {@code name=value} a line in name order: what an entry records of how it was made. */
    public static String text(Map<String, String> key) {
        StringBuilder b = new StringBuilder();
        new TreeMap<>(key).forEach((k, v) -> b.append(k).append('=').append(v).append('\n'));
        return b.toString();
    }

    static String id(Map<String, String> key) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(text(key).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The rate kept under exactly {@code key}, if any. */
    public synchronized Optional<TaskRate> find(Map<String, String> key) throws IOException {
        if (file == null || !Files.exists(file)) {
            return Optional.empty();
        }
        Properties p = load();
        String id = id(key);
        String rate = p.getProperty(id + ".bytesPerSecond");
        if (rate == null || !text(key).equals(p.getProperty(id + ".key"))) {
            return Optional.empty();
        }
        try {
            return Optional.of(new TaskRate(Double.parseDouble(rate), "from the cache " + file + ", measured "
                    + p.getProperty(id + ".when") + ": " + p.getProperty(id + ".how")));
        } catch (IllegalArgumentException e) {
            return Optional.empty(); // a damaged entry is measured again and replaced
        }
    }

    /** A task rate's measurement, run only when the cache holds none for its key. */
    public interface Measurement {
        TaskRate measure() throws Exception;
    }

    /**
     * The rate kept under {@code key}, else {@code measurement}'s, kept; says which on {@code log}, each line starting
     * with {@code who}.
     */
    public TaskRate findOrMeasure(Map<String, String> key, Measurement measurement, PrintStream log, String who)
            throws Exception {
        Optional<TaskRate> cached = find(key);
        if (cached.isPresent()) {
            log.println(who + ": task rate " + cached.get());
            return cached.get();
        }
        TaskRate measured = measurement.measure();
        store(key, measured);
        log.println(who + ": task rate " + measured + (file == null ? "" : "; kept in " + file));
        return measured;
    }

    /** Keeps {@code rate} under {@code key}, replacing what was there; the file is replaced whole (a rename). */
    public synchronized void store(Map<String, String> key, TaskRate rate) throws IOException {
        if (file == null) {
            return;
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        Properties p = Files.exists(file) ? load() : new Properties();
        String id = id(key);
        p.setProperty(id + ".key", text(key));
        p.setProperty(id + ".bytesPerSecond", Double.toString(rate.bytesPerSecond));
        p.setProperty(id + ".how", rate.how);
        p.setProperty(id + ".when", Instant.now().toString());
        java.io.StringWriter text = new java.io.StringWriter();
        p.store(text, "Sluice: map task rates measured per machine, harness and configuration "
                + "(docs/balance.md); delete this file to measure again");
        AtomicReplace.write(file, text.toString().getBytes(StandardCharsets.UTF_8));
    }

    private Properties load() throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        }
        return p;
    }

    /**
     * This machine, as far as its task rate depends on it: host, processor model and count, memory, kernel and JVM.
     */
    public static Map<String, String> machine() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("machine.host", firstLine(Paths.get("/proc/sys/kernel/hostname")).orElse("unknown"));
        m.put("machine.cpu", procLine(Paths.get("/proc/cpuinfo"), "model name").orElse(System.getProperty("os.arch")));
        m.put("machine.cores", String.valueOf(Runtime.getRuntime().availableProcessors()));
        m.put("machine.memory", procLine(Paths.get("/proc/meminfo"), "MemTotal").orElse("unknown"));
        m.put("machine.kernel", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        m.put("machine.jvm", System.getProperty("java.vm.vendor") + " " + System.getProperty("java.vm.version")
                + ", max heap " + Runtime.getRuntime().maxMemory());
        return m;
    }

    /**
     * The code of a harness, as far as a rebuild changes it: each class's code source (its jar or class directory)
     * with the size and modification time of the jar or of the class file.
     */
    public static String code(List<Class<?>> classes) {
        StringBuilder b = new StringBuilder();
        for (Class<?> c : classes) {
            try {
                Path source = Paths.get(c.getProtectionDomain().getCodeSource().getLocation().toURI());
                Path file = Files.isDirectory(source) ? source.resolve(c.getName().replace('.', '/') + ".class")
                        : source;
                b.append(b.length() == 0 ? "" : "; ").append(file).append(' ').append(Files.size(file)).append(' ')
                        .append(Files.getLastModifiedTime(file).toMillis());
            } catch (Exception e) {
                b.append(b.length() == 0 ? "" : "; ").append(c.getName()).append(" (code source unknown)");
            }
        }
        return b.toString();
    }

    /** The file system {@code dir} is on (or would be, the nearest existing parent's): a rate depends on it. */
    public static String storage(Path dir) throws IOException {
        Path existing = dir.toAbsolutePath();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            return "unknown";
        }
        FileStore store = Files.getFileStore(existing);
        return store.name() + " (" + store.type() + ")";
    }

    private static Optional<String> firstLine(Path path) {
        try {
            return Files.readAllLines(path).stream().findFirst().map(String::trim);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> procLine(Path path, String name) {
        try {
            return Files.readAllLines(path).stream().filter(l -> l.startsWith(name)).findFirst()
                    .map(l -> l.substring(l.indexOf(':') + 1).trim());
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
