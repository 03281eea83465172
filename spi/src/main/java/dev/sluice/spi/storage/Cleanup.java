package dev.sluice.spi.storage;

import dev.sluice.spi.WriterGiven;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Runs every step of a clean-up even when some fail: the first failure is thrown at the end, later ones ride along
 * as suppressed, so that a failed delete never leaves the next file behind.
 */
@WriterGiven
public final class Cleanup {
    /** A clean-up step. */
    public interface Step {
        void run() throws IOException;
    }

    private IOException first;

    /** Removes {@code dir} and everything in it, deepest first; nothing if it does not exist. */
    public static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        List<Path> paths;
        try (Stream<Path> walk = Files.walk(dir)) {
            paths = walk.sorted(Comparator.reverseOrder()).collect(Collectors.toList());
        }
        for (Path p : paths) {
            Files.deleteIfExists(p);
        }
    }

    public Cleanup run(Step step) {
        try {
            step.run();
        } catch (IOException e) {
            add(e);
        } catch (RuntimeException e) {
            add(new IOException("clean-up step failed", e));
        }
        return this;
    }

    public void add(IOException e) {
        if (first == null) {
            first = e;
        } else {
            first.addSuppressed(e);
        }
    }

    /** Throws the first failure, if any step failed. */
    public void done() throws IOException {
        if (first != null) {
            throw first;
        }
    }
}
