package dev.sluice.core.measure;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Optional;

/**
 * The kernel's CPU and memory-fault accounting for this process, from {@code /proc/self/stat} (Linux only): user and
 * system CPU time of every thread, and page faults. Around a wave, system time and minor faults show what first
 * touching fresh memory costs (a fault per page, each zeroed by the kernel, and on a virtual machine possibly a fault
 * of the hypervisor's too), which is where waves of strategies that allocate gigabytes per wave spread. Beside them, the
 * JVM's own count of its JIT compilers' time.
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
    /**
     * The JIT compilers' time so far, summed over their threads (the JVM's {@link CompilationMXBean}, ms resolution),
     * nanoseconds; -1 where the JVM does not monitor it. A compilation running in a wave takes a core the wave needs:
     * without compression, 19.9% of ideal's CPU samples at xxlarge were the compiler's (docs/limits.md).
     */
    public final long compilationNanos;

    private ProcSelfStat(long userNanos, long systemNanos, long minorFaults, long majorFaults, long compilationNanos) {
        this.userNanos = userNanos;
        this.systemNanos = systemNanos;
        this.minorFaults = minorFaults;
        this.majorFaults = majorFaults;
        this.compilationNanos = compilationNanos;
    }

    /** The current totals, or empty where {@code /proc/self/stat} cannot be read. */
    public static Optional<ProcSelfStat> read() {
        if (!Files.isReadable(PROC_SELF_STAT)) {
            return Optional.empty();
        }
        try {
            return Optional.of(parse(Files.readString(PROC_SELF_STAT), compilationNanos()));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Parses a stat line: the fields after the command name, which is in parentheses and may hold spaces. */
    static ProcSelfStat parse(String line) {
        return parse(line, -1);
    }

    /** {@link #parse(String)}, with the compilers' time beside what the line holds. */
    private static ProcSelfStat parse(String line, long compilationNanos) {
        String[] f = line.substring(line.lastIndexOf(')') + 2).trim().split(" +");
        // f[0] is field 3 (state): minflt is field 10, majflt 12, utime 14, stime 15.
        long tick = 1_000_000_000L / TICKS_PER_SECOND;
        return new ProcSelfStat(Long.parseLong(f[11]) * tick, Long.parseLong(f[12]) * tick, Long.parseLong(f[7]),
                Long.parseLong(f[9]), compilationNanos);
    }

    /** The compilers' time so far, or -1 where the JVM does not monitor it: one call, no I/O. */
    private static long compilationNanos() {
        CompilationMXBean compilation = ManagementFactory.getCompilationMXBean();
        return compilation != null && compilation.isCompilationTimeMonitoringSupported()
                ? compilation.getTotalCompilationTime() * 1_000_000L : -1;
    }

    /** What changed since {@code before}; the compilers' time -1 where either side lacks it. */
    public ProcSelfStat since(ProcSelfStat before) {
        long compiler = compilationNanos < 0 || before.compilationNanos < 0 ? -1
                : compilationNanos - before.compilationNanos;
        return new ProcSelfStat(userNanos - before.userNanos, systemNanos - before.systemNanos,
                minorFaults - before.minorFaults, majorFaults - before.majorFaults, compiler);
    }
}
