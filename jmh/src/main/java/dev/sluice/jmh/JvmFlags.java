package dev.sluice.jmh;

import java.util.ArrayList;
import java.util.List;

/**
 * The flags forked benchmark JVMs need: those every Sluice JVM needs ({@link dev.sluice.core.host.JvmFlags}), a
 * heap that starts at 1 GiB, and no leak detection.
 */
final class JvmFlags {
    /** Constants, so that {@code @Fork} can name them. */
    static final String ADD_OPENS = dev.sluice.core.host.JvmFlags.ADD_OPENS;
    static final String HEAP_MIN = "-Xms1g";
    static final String HEAP_MAX = dev.sluice.core.host.JvmFlags.HEAP_MAX;
    /** Leak detection samples buffers and costs time; the tests run it at PARANOID instead. */
    static final String NO_LEAK_DETECTION = "-Dio.netty.leakDetection.level=disabled";

    /** The JDK from which G1 pins regions instead of locking out collections (JEP 423): no GCLocker to wait for. */
    static final int REGION_PINNING_FROM = 22;
    /**
     * Before JDK 22, a thread that must allocate while others hold JNI critical regions (lz4-java's JNI compressor
     * over heap arrays, on 16 writer threads) retries 2 times and then throws {@code OutOfMemoryError} with the heap
     * far from full: "Retried waiting for GCLocker too often" (JDK-8192647). Seen at xxlarge with 5000 partitions,
     * buffered's heap records, a 2 GiB heap. A hundred retries keep the fork alive; the waits themselves stay, as
     * they would in Spark on the same JDK.
     */
    static final List<String> GC_LOCKER_RETRIES = List.of("-XX:+UnlockDiagnosticVMOptions",
            "-XX:GCLockerRetryAllocationCount=100");

    private JvmFlags() {}

    /** Flags for a fork running on a JDK of {@code feature} version. */
    static List<String> forFork(int feature) {
        List<String> flags = new ArrayList<>(List.of(ADD_OPENS, HEAP_MIN, NO_LEAK_DETECTION));
        flags.addAll(dev.sluice.core.host.JvmFlags.restricted(feature));
        if (feature < REGION_PINNING_FROM) {
            flags.addAll(GC_LOCKER_RETRIES);
        }
        return flags;
    }
}
