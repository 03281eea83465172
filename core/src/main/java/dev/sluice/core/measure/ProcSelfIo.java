package dev.sluice.core.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The kernel's own I/O accounting for this process, from {@code /proc/self/io} (Linux only). It covers every thread,
 * live or exited, so JIT and GC activity are included; a delta around one map task is dominated by the writer.
 * Where the file does not exist, {@link #read()} says so instead of inventing zeros.
 */
public final class ProcSelfIo {
    private static final Path PROC_SELF_IO = Paths.get("/proc/self/io");

    /** write(2)-family calls, including sendfile and copy_file_range. */
    public final long syscw;
    /** read(2)-family calls. */
    public final long syscr;
    /** Bytes passed to write-family calls. */
    public final long wchar;
    /** Bytes passed to read-family calls. */
    public final long rchar;
    /** Bytes this process caused to be sent to the storage layer (counted when pages are dirtied). */
    public final long writeBytes;
    /** Dirty bytes this process dropped (truncate, delete) before they were written back. */
    public final long cancelledWriteBytes;

    private ProcSelfIo(long syscw, long syscr, long wchar, long rchar, long writeBytes, long cancelledWriteBytes) {
        this.syscw = syscw;
        this.syscr = syscr;
        this.wchar = wchar;
        this.rchar = rchar;
        this.writeBytes = writeBytes;
        this.cancelledWriteBytes = cancelledWriteBytes;
    }

    /** Why {@link #read()} returns nothing on this machine, or empty when it works. */
    public static Optional<String> unavailableReason() {
        if (!Files.isReadable(PROC_SELF_IO)) {
            return Optional.of("/proc/self/io is not readable here (os.name=" + System.getProperty("os.name")
                    + "); kernel I/O accounting needs Linux with task I/O accounting enabled");
        }
        return Optional.empty();
    }

    /** The current totals, or empty where {@code /proc/self/io} is not available. */
    public static Optional<ProcSelfIo> read() {
        if (unavailableReason().isPresent()) {
            return Optional.empty();
        }
        try {
            return Optional.of(parse(Files.readAllLines(PROC_SELF_IO)));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    static ProcSelfIo parse(List<String> lines) {
        Map<String, Long> values = new HashMap<>();
        for (String line : lines) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                values.put(line.substring(0, colon).trim(), Long.parseLong(line.substring(colon + 1).trim()));
            }
        }
        return new ProcSelfIo(values.getOrDefault("syscw", 0L), values.getOrDefault("syscr", 0L),
                values.getOrDefault("wchar", 0L), values.getOrDefault("rchar", 0L),
                values.getOrDefault("write_bytes", 0L), values.getOrDefault("cancelled_write_bytes", 0L));
    }

    public ProcSelfIo since(ProcSelfIo before) {
        return new ProcSelfIo(syscw - before.syscw, syscr - before.syscr, wchar - before.wchar,
                rchar - before.rchar, writeBytes - before.writeBytes, cancelledWriteBytes - before.cancelledWriteBytes);
    }
}
