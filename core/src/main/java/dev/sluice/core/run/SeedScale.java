package dev.sluice.core.run;

import dev.sluice.core.measure.Meminfo;
import dev.sluice.spi.Bytes;
import java.util.Locale;

/**
 * The seed report ran 16 map tasks at once on a machine with 125 GB of memory, so the page cache's pressure grew with
 * tasks x size / memory. The seed-equivalent scale makes that ratio the same here:
 * {@code scale = 16 x memory / (tasks x 125 GiB)}, memory being this machine's {@code MemTotal}. (The report prints
 * "125 GB", as {@code free -g} does for a 128 GiB machine; it is taken as GiB.)
 */
public final class SeedScale {
    public static final String NAME = "seed-equivalent";
    public static final int SEED_TASKS = 16;
    public static final long SEED_MEMORY = 125 * Bytes.GiB;

    private SeedScale() {}

    public static double of(int tasks, long memory) {
        return (double) SEED_TASKS * memory / ((double) tasks * SEED_MEMORY);
    }

    /** Why that scale, in one line with the numbers. */
    public static String explain(int tasks, long memory) {
        return String.format(Locale.ROOT, "scale %.3f = 16 tasks x %.1f GiB (MemTotal here) / (%d tasks x 125 GiB (the "
                + "seed's machine)): %d tasks x size / memory here equals the seed's 16 x size / 125 GiB",
                of(tasks, memory), memory / (double) Bytes.GiB, tasks, tasks);
    }

    /** {@code MemTotal} of {@code /proc/meminfo}; the JVM's view of physical memory where that cannot be read. */
    public static long memoryTotal() {
        long[] total = Meminfo.read(Meminfo.PROC, "MemTotal");
        if (total != null) {
            return total[0];
        }
        java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean) {
            return ((com.sun.management.OperatingSystemMXBean) os).getTotalMemorySize();
        }
        throw new IllegalStateException("cannot tell this machine's memory for the seed-equivalent scale");
    }
}
