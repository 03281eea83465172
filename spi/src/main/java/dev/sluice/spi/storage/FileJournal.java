package dev.sluice.spi.storage;

import dev.sluice.spi.EngineOnly;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Told of every file {@link CountedStorage} is about to create or rename into place, before it exists, so that whoever
 * owns the directory can know every file a run made, even one the run never got to delete (a run killed outright).
 */
@EngineOnly
public interface FileJournal {
    /** Nothing is recorded. */
    FileJournal NONE = path -> {};

    /** {@code path} is about to be created, or renamed into; throwing stops it. */
    void beforeCreate(Path path) throws IOException;
}
