package dev.sluice.strategy.sort;

import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.storage.WritableFile;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Spark's {@code SpillInfo}: one sorted file and each partition's segment length in it. The last file of a task that
 * never spilled stays open, to become the data file by a rename; every other is closed once written and deleted
 * after the merge.
 */
final class Spill {
    final Path path;
    final long[] partitionLengths;
    /** Open while it is written, and after it for the file that becomes the data file; null once closed. */
    WritableFile file;

    Spill(Path path, WritableFile file, int partitions) {
        this.path = path;
        this.file = file;
        this.partitionLengths = new long[partitions];
    }

    void close() throws IOException {
        if (file != null) {
            WritableFile open = file;
            file = null;
            open.close();
        }
    }

    /** Closes and deletes the file, whatever state it is in. */
    void discard(CountedStorage storage) throws IOException {
        try {
            close();
        } finally {
            storage.delete(path);
        }
    }
}
