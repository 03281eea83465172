package dev.sluice.spark.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The peaks of one run in this JVM: heap used, and Sluice's direct memory where it is readable. Heap used is sampled
 * every {@value #INTERVAL_MILLIS} ms by a daemon thread and read from every collection's "before" figures (a heap's
 * peak is just before a collection, which a sample can miss). Sluice's direct memory is sampled alike, and where its
 * allocator's lifetime peak rose during the run, that peak is the run's, exactly.
 */
final class MemoryPeaks implements AutoCloseable {
    static final long INTERVAL_MILLIS = 10;

    /** Sluice's direct memory: held now, and the most held at once so far. */
    interface OffHeap {
        long allocated();

        long peak();
    }

    /** A run's peaks; {@code offHeapBytes} is null where Sluice's memory was not readable. */
    record Peaks(long heapBytes, Long offHeapBytes) {
    }

    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName).collect(Collectors.toSet());
    private final OffHeap offHeap;
    private final long offHeapPeakBefore;
    private final long startUptime = ManagementFactory.getRuntimeMXBean().getUptime();
    private final AtomicLong heapPeak = new AtomicLong();
    private final AtomicLong offHeapPeak = new AtomicLong();
    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private final NotificationListener beforeCollection = this::collected;
    private final Thread sampler;
    private volatile boolean stopped;

    /** Starts sampling now; {@code offHeap} null where Sluice's memory is not in this JVM. */
    MemoryPeaks(OffHeap offHeap) {
        this.offHeap = offHeap;
        this.offHeapPeakBefore = offHeap == null ? 0 : offHeap.peak();
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(beforeCollection, null, null);
                emitters.add(emitter);
            }
        }
        sample();
        sampler = new Thread(() -> {
            while (!stopped) {
                sample();
                try {
                    Thread.sleep(INTERVAL_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "spark-bench memory peaks");
        sampler.setDaemon(true);
        sampler.start();
    }

    private void sample() {
        heapPeak.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
        if (offHeap != null) {
            offHeapPeak.accumulateAndGet(offHeap.allocated(), Math::max);
        }
    }

    /** A collection's heap used before it, counted if the collection started after this run did. */
    private void collected(Notification notification, Object handback) {
        if (!notification.getType().equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
            return;
        }
        GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from(
                (CompositeData) notification.getUserData());
        if (info.getGcInfo().getStartTime() < startUptime) {
            return;
        }
        heapPeak.accumulateAndGet(heapUsed(info.getGcInfo().getMemoryUsageBeforeGc()), Math::max);
    }

    private long heapUsed(Map<String, MemoryUsage> pools) {
        long used = 0;
        for (Map.Entry<String, MemoryUsage> pool : pools.entrySet()) {
            if (heapPools.contains(pool.getKey())) {
                used += pool.getValue().getUsed();
            }
        }
        return used;
    }

    /** Stops sampling and returns the peaks since the start. */
    Peaks stop() throws InterruptedException {
        close();
        sample();
        Long offHeapBytes = null;
        if (offHeap != null) {
            long lifetime = offHeap.peak();
            offHeapBytes = lifetime > offHeapPeakBefore ? lifetime : offHeapPeak.get();
        }
        return new Peaks(heapPeak.get(), offHeapBytes);
    }

    @Override
    public void close() throws InterruptedException {
        if (stopped) {
            return;
        }
        stopped = true;
        sampler.interrupt();
        sampler.join();
        for (NotificationEmitter emitter : emitters) {
            try {
                emitter.removeNotificationListener(beforeCollection);
            } catch (ListenerNotFoundException e) {
                // already gone
            }
        }
    }
}
