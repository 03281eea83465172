package dev.sluice.core.host;

import java.util.ArrayList;
import java.util.List;

/**
 * The flags every JVM that runs Sluice needs, in one list: Arrow's access to {@code java.nio}, and from JDK 24 on,
 * Arrow's and Netty's use of {@code sun.misc.Unsafe} memory access and native access, which those JDKs restrict
 * (<a href="https://openjdk.org/jeps/498">JEP 498</a>, <a href="https://openjdk.org/jeps/472">JEP 472</a>); and the
 * heap a JVM of the command line or of a test gets unless told otherwise. Benchmark forks and the command line's test
 * processes take them from here. The build's test JVMs ({@code sluice.test.argLine} in the parent pom) and the scripts
 * ({@code set_java_flags} in {@code scripts/lib.sh}) cannot call Java for them; JvmFlagsTest fails when either differs.
 */
public final class JvmFlags {
    /** Every JDK Sluice supports understands it, so that {@code @Fork} can name it. */
    public static final String ADD_OPENS = "--add-opens=java.base/java.nio=ALL-UNNAMED";
    /** The JDK from which {@link #UNSAFE_MEMORY_ACCESS} and {@link #NATIVE_ACCESS} are needed (and understood). */
    public static final int RESTRICTED_FROM = 24;
    public static final String UNSAFE_MEMORY_ACCESS = "--sun-misc-unsafe-memory-access=allow";
    public static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";
    /** The heap of a command-line JVM, a test JVM, and the least a benchmark fork gets. */
    public static final String HEAP_MAX = "-Xmx2g";

    private JvmFlags() {}

    /** The flags a JVM of JDK {@code feature} (e.g. 17, 25) needs to run Arrow and Netty. */
    public static List<String> required(int feature) {
        List<String> flags = new ArrayList<>(List.of(ADD_OPENS));
        flags.addAll(restricted(feature));
        return flags;
    }

    /** What JDK {@code feature} restricts and Arrow and Netty use: nothing before JDK 24. */
    public static List<String> restricted(int feature) {
        return feature >= RESTRICTED_FROM ? List.of(UNSAFE_MEMORY_ACCESS, NATIVE_ACCESS) : List.of();
    }
}
