package dev.sluice.core.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Optional;

/**
 * The kernel's CPU and memory-fault accounting for this process, from {@code /proc/self/stat} (Linux only): user and
 * system CPU time of every thread, and page faults. Around a wave, system time and minor faults show what first
 * touching fresh memory costs (a fault per page, each zeroed by the kernel, and on a virtual machine possibly a fault
 * of the hypervisor's too), which is where waves of strategies that allocate gigabytes per wave spread.
 */
public final class ProcSelfStat {
    private static final Path PROC_SELF_STAT = Paths.get("/proc/self/stat");
    /** {@code USER_HZ}: the kernel reports CPU times in hundredths of a second on every architecture Java runs on. */
    static final long TICKS_PER_SECOND = 100;

    /** CPU time in user mode and in the kernel, nanoseconds (10 ms resolution). */
    public final long userNanos;
    public final long systemNanos;
    /** Faults served without I/O (a fresh page, a page in the page cache), and with it. */
    public final long minorFaults;
    public final long majorFaults;

    private ProcSelfStat(long userNanos, long systemNanos, long minorFaults, long majorFaults) {
        this.userNanos = userNanos;
        this.systemNanos = systemNanos;
        this.minorFaults = minorFaults;
        this.majorFaults = majorFaults;
    }

    /** The current totals, or empty where {@code /proc/self/stat} cannot be read. */
    public static Optional<ProcSelfStat> read() {
        if (!Files.isReadable(PROC_SELF_STAT)) {
            return Optional.empty();
        }
        try {
            return Optional.of(parse(Files.readString(PROC_SELF_STAT)));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Parses a stat line: the fields after the command name, which is in parentheses and may hold spaces. */
    static ProcSelfStat parse(String line) {
        String[] f = line.substring(line.lastIndexOf(')') + 2).trim().split(" +");
        // f[0] is field 3 (state): minflt is field 10, majflt 12, utime 14, stime 15.
        long tick = 1_000_000_000L / TICKS_PER_SECOND;
        return new ProcSelfStat(Long.parseLong(f[11]) * tick, Long.parseLong(f[12]) * tick, Long.parseLong(f[7]),
                Long.parseLong(f[9]));
    }

    public ProcSelfStat since(ProcSelfStat before) {
        return new ProcSelfStat(userNanos - before.userNanos, systemNanos - before.systemNanos,
                minorFaults - before.minorFaults, majorFaults - before.majorFaults);
    }
}
