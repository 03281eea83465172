package dev.sluice.core.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Optional;

/**
 * The whole machine's busy CPU time, from the first line of {@code /proc/stat} (Linux only): every core's time in user
 * mode, in the kernel and serving interrupts, and stolen by a hypervisor; not idle and not waiting for I/O. Around a
 * wave, less this process's own ({@link ProcSelfStat}), it is what ran beside the tasks on the same cores: the kernel's
 * writeback threads, an emulated device's loop workers and its writeback starter, other processes. A real disk moves
 * its bytes without the host's cores; an emulated one does not, so this is where the emulation's own CPU shows.
 */
public final class MachineCpu {
    private static final Path PROC_STAT = Paths.get("/proc/stat");

    /** Busy CPU time over all cores, nanoseconds (10 ms resolution per core). */
    public final long busyNanos;

    private MachineCpu(long busyNanos) {
        this.busyNanos = busyNanos;
    }

    /** The current total, or empty where {@code /proc/stat} cannot be read. */
    public static Optional<MachineCpu> read() {
        if (!Files.isReadable(PROC_STAT)) {
            return Optional.empty();
        }
        try (var lines = Files.lines(PROC_STAT)) {
            return lines.findFirst().map(MachineCpu::parse);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * Parses the aggregate line, {@code cpu user nice system idle iowait irq softirq steal guest guest_nice} in clock
     * ticks: busy is user + nice + system + irq + softirq + steal (guest time is already in user and nice).
     */
    static MachineCpu parse(String line) {
        String[] f = line.trim().split(" +");
        if (!f[0].equals("cpu") || f.length < 9) {
            throw new IllegalArgumentException("not /proc/stat's aggregate cpu line: " + line);
        }
        long ticks = 0;
        for (int i : new int[] {1, 2, 3, 6, 7, 8}) {
            ticks += Long.parseLong(f[i]);
        }
        return new MachineCpu(ticks * (1_000_000_000L / ProcSelfStat.TICKS_PER_SECOND));
    }

    /** The busy time since {@code before}. */
    public MachineCpu since(MachineCpu before) {
        return new MachineCpu(busyNanos - before.busyNanos);
    }
}
