package dev.sluice.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.core.device.DeviceMechanism;
import dev.sluice.core.device.DeviceSpec;
import dev.sluice.core.device.EmulatedDevice;
import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.core.run.Metric;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.DoubleSummaryStatistics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The machine a benchmark ran on, written beside its results: JDK, cores, memory, kernel, the file system of the
 * output directory and its free space, the page-cache writeback settings ({@code /proc/sys/vm/dirty_*}) that decide
 * when written bytes reach the disk, whether free page reporting gives idle free memory back to a hypervisor, and
 * the git commit.
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
        // Free page reporting (a virtual machine's balloon): free memory left idle is given back to the host and
        // costs far more when written again; the gate's prefault (dev.sluice.core.run.Prefault) is there for it.
        Path reporting = Path.of("/sys/module/page_reporting/parameters/page_reporting_order");
        v.put("freePageReporting", Files.isReadable(reporting) ? "built in, page_reporting_order "
                + firstLine(reporting) + " (used where a balloon device reports free pages)" : "not built in");
        v.put("gitCommit", commit);
        return new Environment(v);
    }

    /** This environment with one more value. */
    public Environment with(String key, String value) {
        Map<String, String> v = new LinkedHashMap<>(values);
        v.put(key, value);
        return new Environment(v);
    }

    /**
     * This environment with the storage devices of {@code rows}: for each {@code device} parameter, its kind, the
     * figures the kernel was told to enforce (JMH's {@code device.*} secondary results, which every trial on an emulated
     * device reports) and the range of the raw writes measured through it when each trial's device was made, with the
     * block throttle this machine uses. Benchmarks without a device parameter add nothing.
     */
    public Environment withDevices(List<JmhResults.Row> rows) {
        Map<String, List<JmhResults.Row>> byDevice = new TreeMap<>();
        for (JmhResults.Row row : rows) {
            if (row.params.containsKey(BenchmarkParam.DEVICE.key())) {
                byDevice.computeIfAbsent(row.param(BenchmarkParam.DEVICE), k -> new ArrayList<>()).add(row);
            }
        }
        if (byDevice.isEmpty()) {
            return this;
        }
        Map<String, String> v = new LinkedHashMap<>(values);
        boolean emulated = false;
        for (Map.Entry<String, List<JmhResults.Row>> e : byDevice.entrySet()) {
            v.put("device " + e.getKey(), describe(e.getValue()));
            emulated |= !e.getKey().equals(DeviceSpec.NATIVE);
        }
        if (emulated) {
            v.put("deviceMechanism", EmulatedDevice.throttleHere() + "; loop device over a sparse image (ext4, "
                    + "direct I/O); dirty cache capped by the device's bdi with strict_limit, " + DeviceMechanism.FLUID
                    .description() + " (runs before 2026-11: " + DeviceMechanism.LEGACY.description() + ")");
        }
        return new Environment(v);
    }

    private static String describe(List<JmhResults.Row> rows) {
        DoubleSummaryStatistics raw = new DoubleSummaryStatistics();
        TreeSet<String> figures = new TreeSet<>();
        for (JmhResults.Row row : rows) {
            row.metric(Metric.DEVICE_RAW_WRITE_MBPS).ifPresent(raw::accept);
            if (row.metric(Metric.DEVICE_WRITE_MBPS).isPresent()) {
                figures.add(String.format(Locale.ROOT, "write %.1f MB/s, dirty %.0f MB, %s%s",
                        row.metric(Metric.DEVICE_WRITE_MBPS).getAsDouble(),
                        row.metric(Metric.DEVICE_DIRTY_MB).orElse(0),
                        row.metric(Metric.DEVICE_IOPS).orElse(0) == 0 ? "no IOPS limit"
                                : String.format(Locale.ROOT, "%.0f IOPS", row.metric(Metric.DEVICE_IOPS).getAsDouble()),
                        row.metric(Metric.DEVICE_TASK_RATE_MBPS).isPresent()
                                ? String.format(Locale.ROOT, ", set relative "
                                + "to this harness's task rate of %.1f MB/s per task (measured per-batch at small on "
                                + "native storage, or read from the task-rate cache; each fork's log says which)",
                                row.metric(Metric.DEVICE_TASK_RATE_MBPS).getAsDouble()) : ""));
            }
        }
        if (raw.getCount() == 0) {
            return "native: the benchmark directory as given (" + rows.size() + " configurations)";
        }
        return String.format(Locale.ROOT, "emulated, %s (%d configurations); raw write of one copy measured when each "
                        + "trial's device was made: %.1f to %.1f MB/s, mean %.1f", String.join("; ", figures),
                rows.size(), raw.getMin(), raw.getMax(), raw.getAverage());
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
