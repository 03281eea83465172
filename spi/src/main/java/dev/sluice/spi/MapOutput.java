package dev.sluice.spi;

import dev.sluice.spi.storage.CountedStorage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A committed map output, as Spark's {@code MapOutputCommitMessage} describes it: the length of every partition, and
 * where the bytes are. Closing it releases memory it holds (a catalog's segments); committed files stay until
 * {@link #delete}.
 */
@WriterGiven
public interface MapOutput extends AutoCloseable {
    int shuffleId();

    long mapId();

    /** Bytes of each partition, in partition order. Do not modify. */
    long[] partitionLengths();

    default int numPartitions() {
        return partitionLengths().length;
    }

    default long totalBytes() {
        long total = 0;
        for (long length : partitionLengths()) {
            total += length;
        }
        return total;
    }

    /** Files that hold this output (data and index), empty if it lives elsewhere. */
    List<Path> files();

    /** A reader of this output's partitions, counting what it reads in {@code storage}. */
    PartitionReader openReader(CountedStorage storage) throws IOException;

    /** Removes the committed files, if any (between benchmark operations). */
    void delete(CountedStorage storage) throws IOException;

    @Override
    default void close() {}
}
