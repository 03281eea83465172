package dev.sluice.jmh.state;

import dev.sluice.spi.storage.Cleanup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * A trial's fresh directory for its files, under {@code -Dsluice.dir} or {@code java.io.tmpdir}, removed when the
 * trial ends whether it succeeded or failed. JMH runs no {@code @TearDown} once a benchmark, a setup or a teardown
 * has thrown, so every directory made here is also registered with a shutdown hook that removes it when the JVM
 * exits: a fork runs its trial and exits, failed or not, and a trial whose setup fails removes its directory at once.
 */
public final class TrialDirectory {
    /** Map outputs and scratch files go under this directory (a fresh subdirectory per trial). */
    public static final String DIR_PROPERTY = "sluice.dir";

    private static final Set<Path> OPEN = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(TrialDirectory::removeAll, "sluice-trial-directories"));
    }

    private TrialDirectory() {}

    /** Where trials' directories go on native storage: {@code -Dsluice.dir}, or the temp directory. */
    public static Path base() {
        return Paths.get(System.getProperty(DIR_PROPERTY, System.getProperty("java.io.tmpdir")));
    }

    /** A fresh directory named {@code prefix...}, removed by {@link #remove} or, failing that, when the JVM exits. */
    public static Path create(String prefix) throws IOException {
        return create(base(), prefix);
    }

    /** The same in {@code parent} (a trial's emulated device). */
    public static Path create(Path parent, String prefix) throws IOException {
        Path dir = Files.createTempDirectory(parent, prefix);
        OPEN.add(dir);
        return dir;
    }

    /** Removes the directory and everything in it. */
    public static void remove(Path dir) throws IOException {
        if (dir == null) {
            return;
        }
        Cleanup.deleteTree(dir);
        OPEN.remove(dir);
    }

    /** The directories made and not removed yet. */
    public static List<Path> open() {
        return OPEN.stream().sorted().collect(Collectors.toList());
    }

    /** What the shutdown hook does: removes every directory a trial left, as far as it can. */
    static void removeAll() {
        for (Path dir : open()) {
            try {
                remove(dir);
            } catch (IOException | RuntimeException e) {
                System.err.println("sluice: could not remove the trial directory " + dir + ": " + e);
            }
        }
    }
}
