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

    private JvmFlags() {}

    /** Flags for a fork running on a JDK of {@code feature} version. */
    static List<String> forFork(int feature) {
        List<String> flags = new ArrayList<>(List.of(ADD_OPENS, HEAP_MIN, NO_LEAK_DETECTION));
        flags.addAll(dev.sluice.core.host.JvmFlags.restricted(feature));
        return flags;
    }
}
