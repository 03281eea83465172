package dev.sluice.core.file;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A file replaced whole: the bytes go to a temporary file beside it, which is then renamed over it, so that a reader
 * (another run, another JVM of the same run) sees the old file or the new one, never half of either; the temporary
 * file is gone whether the write succeeds or fails. The caches and the verified digests keep their files this way.
 */
public final class AtomicReplace {
    private AtomicReplace() {}

    /** Replaces {@code file} (made where missing) with {@code bytes}; its directory must exist. */
    public static void write(Path file, byte[] bytes) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Path temp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
        try {
            Files.write(temp, bytes);
            try {
                Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }
}
