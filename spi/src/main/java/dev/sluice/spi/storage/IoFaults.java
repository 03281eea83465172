package dev.sluice.spi.storage;

import dev.sluice.spi.EngineOnly;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A hook called by {@link CountedStorage} before each operation reaches the OS. It exists so that tests (Sluice's and
 * those of a third-party writer) can make storage fail at any chosen point of a run; production runs use {@link #NONE}.
 */
@EngineOnly
public interface IoFaults {
    IoFaults NONE = new IoFaults() {};

    /** Called before every write call; {@code callNumber} counts write calls of this storage from 1. */
    default void beforeWrite(long callNumber, Path file, long bytes, WriteKind kind) throws IOException {}

    /** Called before every rename; {@code renameNumber} counts renames of this storage from 1. */
    default void beforeRename(long renameNumber, Path from, Path to) throws IOException {}

    /** Called before every fsync. */
    default void beforeForce(Path file) throws IOException {}

    /** Fails the {@code k}-th write call (counted from 1) and every one after it. */
    static IoFaults failingWriteCall(long k) {
        return new IoFaults() {
            @Override
            public void beforeWrite(long callNumber, Path file, long bytes, WriteKind kind) throws IOException {
                if (callNumber >= k) {
                    throw new IOException("injected fault: write call #" + callNumber + " (" + bytes + " bytes to " + file.getFileName() + ")");
                }
            }
        };
    }

    /** Fails the {@code k}-th rename (counted from 1) and every one after it. */
    static IoFaults failingRename(long k) {
        return new IoFaults() {
            @Override
            public void beforeRename(long renameNumber, Path from, Path to) throws IOException {
                if (renameNumber >= k) {
                    throw new IOException("injected fault: rename #" + renameNumber + " of " + from.getFileName() + " to " + to.getFileName());
                }
            }
        };
    }
}
