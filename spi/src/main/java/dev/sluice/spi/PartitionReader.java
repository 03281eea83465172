package dev.sluice.spi;

import java.io.IOException;
import java.nio.channels.ReadableByteChannel;

/** Serves the bytes of each partition of one map output, whatever holds them (files, memory, a catalog). */
@WriterGiven
public interface PartitionReader extends AutoCloseable {
    int numPartitions();

    /** Bytes of partition {@code p}; 0 for an empty partition. */
    long length(int partition) throws IOException;

    /** The bytes of partition {@code p}: one stream of the map task's format, or nothing if empty. */
    ReadableByteChannel open(int partition) throws IOException;

    @Override
    void close() throws IOException;
}
