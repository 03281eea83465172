package dev.sluice.spi;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What a run may hold in memory at most, part by part, against what the machine and the JVM have: a configuration
 * that cannot fit is refused before it starts, with the numbers, instead of dying of an out-of-memory error halfway.
 */
@WriterGiven
public final class MemoryPlan {

    private final Map<String, Long> offHeap = new LinkedHashMap<>();
    private final Map<String, Long> heap = new LinkedHashMap<>();
    private long direct;

    /** Memory outside the Java heap (host buffers, Netty buffers, partials). */
    public MemoryPlan offHeap(String what, long bytes) {
        offHeap.merge(what, bytes, Long::sum);
        return this;
    }

    /**
     * Off-heap memory in NIO direct buffers (Netty's pooled record buffers), which the JVM caps at
     * {@code -XX:MaxDirectMemorySize}; counted in the off-heap total too.
     */
    public MemoryPlan direct(String what, long bytes) {
        direct += bytes;
        return offHeap(what, bytes);
    }

    public long directTotal() {
        return direct;
    }

    /** Memory in the Java heap (heap record buffers). */
    public MemoryPlan heap(String what, long bytes) {
        heap.merge(what, bytes, Long::sum);
        return this;
    }

    /** Adds every part of {@code other}. */
    public MemoryPlan include(MemoryPlan other) {
        other.offHeap.forEach(this::offHeap);
        other.heap.forEach(this::heap);
        direct += other.direct;
        return this;
    }

    public long offHeapTotal() {
        return offHeap.values().stream().mapToLong(Long::longValue).sum();
    }

    public long heapTotal() {
        return heap.values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * Why the plan does not fit, in words with every number, or null when it does: off-heap memory plus the JVM's
     * maximum heap must fit in {@code available} bytes, and the heap part in {@code maxHeap}.
     */
    public String refusal(long available, long maxHeap) {
        long total = offHeapTotal() + maxHeap;
        if (heapTotal() > maxHeap) {
            return String.format(Locale.ROOT, "needs %s of Java heap (%s) but the JVM's maximum heap is %s; "
                    + "give it more with -Xmx (scripts/sluice takes JVM options from SLUICE_JAVA_OPTS, default "
                    + "-Xmx2g: SLUICE_JAVA_OPTS=-Xmx%dg scripts/sluice ...)", gib(heapTotal()), describe(heap),
                    gib(maxHeap), (heapTotal() + Bytes.GiB - 1) / Bytes.GiB + 1);
        }
        if (total > available) {
            return String.format(Locale.ROOT, "needs up to %s of memory (%s, plus the JVM's %s heap) but this machine "
                    + "has %s available (MemAvailable in /proc/meminfo); use a smaller size or scale, fewer tasks, or "
                    + "a memory limit", gib(total), describe(offHeap), gib(maxHeap), gib(available));
        }
        return null;
    }

    private static String describe(Map<String, Long> parts) {
        return parts.entrySet().stream().filter(e -> e.getValue() > 0)
                .map(e -> e.getKey() + " " + gib(e.getValue())).collect(Collectors.joining(", "));
    }

    static String gib(long bytes) {
        return bytes >= Bytes.GiB ? String.format(Locale.ROOT, "%.1f GiB", bytes / (double) Bytes.GiB)
                : String.format(Locale.ROOT, "%.0f MiB", bytes / (double) Bytes.MiB);
    }
}
