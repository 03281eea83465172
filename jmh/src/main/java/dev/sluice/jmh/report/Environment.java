package dev.sluice.jmh.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The machine a benchmark ran on, written beside its results: JDK, cores, memory, kernel, the file system of the
 * output directory and its free space, the page-cache writeback settings ({@code /proc/sys/vm/dirty_*}) that decide
 * when written bytes reach the disk, and the git commit.
 */
public final class Environment {
    static final List<String> DIRTY_SETTINGS = List.of("dirty_ratio", "dirty_background_ratio", "dirty_bytes",
            "dirty_background_bytes", "dirty_expire_centisecs", "dirty_writeback_centisecs");

    private final Map<String, String> values;

    private Environment(Map<String, String> values) {
        this.values = values;
    }

    public Map<String, String> values() {
        return values;
    }

    public String get(String key) {
        return values.getOrDefault(key, "unknown");
    }

    /** Probes this machine; {@code jdk} and {@code commit} come from the caller (the JDK that ran the forks). */
    public static Environment probe(Path benchmarkDir, String jdk, String commit) throws IOException {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("jdk", jdk);
        v.put("cores", String.valueOf(Runtime.getRuntime().availableProcessors()));
        v.put("memory", meminfo("MemTotal"));
        v.put("kernel", System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
        Path dir = benchmarkDir.toAbsolutePath();
        while (dir != null && !Files.exists(dir)) {
            dir = dir.getParent();
        }
        if (dir != null) {
            FileStore store = Files.getFileStore(dir);
            v.put("benchmarkDir", benchmarkDir.toAbsolutePath().toString());
            v.put("fileSystem", store.type() + " (" + store.name() + ")");
            v.put("freeSpace", String.format(java.util.Locale.ROOT, "%.1f GiB", store.getUsableSpace() / (double) (1L << 30)));
        }
        for (String setting : DIRTY_SETTINGS) {
            Path file = Path.of("/proc/sys/vm", setting);
            v.put("vm." + setting, Files.isReadable(file) ? firstLine(file) : "unavailable");
        }
        v.put("gitCommit", commit);
        return new Environment(v);
    }

    /**
     * The first line, read in one call: a sysctl file answers a read at a non-zero offset with end-of-file, so
     * {@code Files.readString} (which may read a file that reports size 0 in pieces) can return only the first byte.
     */
    private static String firstLine(Path file) throws IOException {
        try (java.io.BufferedReader in = Files.newBufferedReader(file)) {
            String line = in.readLine();
            return line == null ? "" : line.trim();
        }
    }

    private static String meminfo(String key) throws IOException {
        Path file = Path.of("/proc/meminfo");
        if (!Files.isReadable(file)) {
            return "unknown";
        }
        for (String line : Files.readAllLines(file)) {
            if (line.startsWith(key + ":")) {
                return line.substring(key.length() + 1).trim();
            }
        }
        return "unknown";
    }

    public void write(Path file) throws IOException {
        ObjectMapper json = new ObjectMapper();
        ObjectNode node = json.createObjectNode();
        values.forEach(node::put);
        json.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), node);
    }

    /** Reads an environment file; an absent one gives an environment of unknowns. */
    public static Environment read(Path file) throws IOException {
        Map<String, String> v = new LinkedHashMap<>();
        if (Files.isRegularFile(file)) {
            JsonNode node = new ObjectMapper().readTree(file.toFile());
            node.fields().forEachRemaining(e -> v.put(e.getKey(), e.getValue().asText()));
        }
        return new Environment(v);
    }
}
