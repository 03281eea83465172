package dev.sluice.jmh;

import java.util.ArrayList;
import java.util.List;

/** The flags forked benchmark JVMs need: Arrow's access to java.nio, and on JDK 24+ Unsafe for Arrow and Netty. */
final class JvmFlags {
    /** Every JDK Sluice supports understands these, so {@code @Fork} can name them. */
    static final String ADD_OPENS = "--add-opens=java.base/java.nio=ALL-UNNAMED";
    static final String HEAP_MIN = "-Xms1g";
    static final String HEAP_MAX = "-Xmx2g";
    /** Leak detection samples buffers and costs time; the tests run it at PARANOID instead. */
    static final String NO_LEAK_DETECTION = "-Dio.netty.leakDetection.level=disabled";

    private JvmFlags() {}

    /** Flags for a fork running on a JDK of {@code feature} version. */
    static List<String> forFork(int feature) {
        List<String> flags = new ArrayList<>(List.of(ADD_OPENS, HEAP_MIN, NO_LEAK_DETECTION));
        if (feature >= 24) {
            flags.add("--sun-misc-unsafe-memory-access=allow");
            flags.add("--enable-native-access=ALL-UNNAMED");
        }
        return flags;
    }
}
