package dev.sluice.spi;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What a run may need of its output directory's file system at once, part by part: bytes on it and files open in the
 * process. A configuration that cannot fit is refused before anything is created, with the numbers, instead of
 * filling a disk or running out of file descriptors halfway ("Too many open files" after 48 s).
 */
@WriterGiven
public final class StoragePlan {
    /** File descriptors the JVM and Sluice hold besides the writers' files: jars, sockets, /proc readers. */
    static final long DESCRIPTOR_HEADROOM = 512;

    private final Map<String, Long> bytes = new LinkedHashMap<>();
    private final Map<String, Long> openFiles = new LinkedHashMap<>();

    /** Bytes that may be on the file system at once. */
    public StoragePlan bytes(String what, long n) {
        bytes.merge(what, n, Long::sum);
        return this;
    }

    /** Files that may be open at once. */
    public StoragePlan openFiles(String what, long n) {
        openFiles.merge(what, n, Long::sum);
        return this;
    }

    public long bytesTotal() {
        return bytes.values().stream().mapToLong(Long::longValue).sum();
    }

    public long openFilesTotal() {
        return openFiles.values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * Why the plan does not fit, in words with every number, or null when it does: its bytes must fit the
     * {@code usable} bytes of {@code dir}'s file system, and its open files, with headroom for the JVM's own, the
     * process's limit {@code maxOpenFiles}.
     */
    public String refusal(Path dir, long usable, long maxOpenFiles) {
        if (bytesTotal() > usable) {
            return String.format(Locale.ROOT, "needs up to %s on the file system of %s (%s) but it has %s usable; "
                    + "use a smaller size or scale, fewer tasks, or another directory", size(bytesTotal()), dir,
                    describe(bytes, StoragePlan::size), size(usable));
        }
        if (openFilesTotal() + DESCRIPTOR_HEADROOM > maxOpenFiles) {
            return String.format(Locale.ROOT, "needs up to %d open files (%s, plus about %d the JVM holds) but this "
                    + "process may open %d (Max open files in /proc/self/limits; raise it with ulimit -n); use fewer "
                    + "partitions or tasks", openFilesTotal(), describe(openFiles, String::valueOf),
                    DESCRIPTOR_HEADROOM, maxOpenFiles);
        }
        return null;
    }

    /** {@link #refusal} against what this machine has: the usable space of {@code dir} (or its nearest parent). */
    public String refusal(Path dir) throws IOException {
        Path existing = dir.toAbsolutePath();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        long usable = existing == null ? Long.MAX_VALUE : Files.getFileStore(existing).getUsableSpace();
        return refusal(dir, usable, maxOpenFiles());
    }

    /** The soft limit of open files of this process, or {@link Long#MAX_VALUE} where it cannot be read. */
    public static long maxOpenFiles() {
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/self/limits"));
            for (String line : lines) {
                if (line.startsWith("Max open files")) {
                    String soft = line.substring("Max open files".length()).trim().split("\\s+")[0];
                    return soft.equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(soft);
                }
            }
        } catch (IOException | RuntimeException e) {
            // Not Linux, or an unexpected format: no limit known.
        }
        return Long.MAX_VALUE;
    }

    private static String describe(Map<String, Long> parts, java.util.function.LongFunction<String> format) {
        return parts.entrySet().stream().filter(e -> e.getValue() > 0)
                .map(e -> e.getKey() + " " + format.apply(e.getValue())).collect(Collectors.joining(", "));
    }

    static String size(long n) {
        return n >= Bytes.GiB ? String.format(Locale.ROOT, "%.1f GiB", n / (double) Bytes.GiB)
                : String.format(Locale.ROOT, "%.0f MiB", n / (double) Bytes.MiB);
    }
}
