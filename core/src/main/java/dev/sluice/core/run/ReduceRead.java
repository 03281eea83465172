package dev.sluice.core.run;

import dev.sluice.spi.MapOutput;
import dev.sluice.spi.PartitionReader;
import dev.sluice.spi.storage.CountedStorage;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * The reduce side of the seed's query: every reduce partition fetches its bytes from every map output of the wave
 * (from the data file through its index, or from a segment catalog), as a reduce task's fetch does, through a
 * 64 KiB buffer. The bytes are the same for every strategy; what differs is where they are read from (page cache,
 * device, memory). Each partition's length is checked.
 */
public final class ReduceRead {
    static final int BUFFER = 64 * 1024;

    private ReduceRead() {}

    /** What reading a wave's outputs took. */
    public static final class Result {
        public final long nanos;
        public final long bytes;

        Result(long nanos, long bytes) {
            this.nanos = nanos;
            this.bytes = bytes;
        }
    }

    public static Result readAll(List<MapOutput> outputs, CountedStorage storage) throws IOException {
        long start = System.nanoTime();
        List<PartitionReader> readers = new ArrayList<>();
        long bytes = 0;
        try {
            for (MapOutput output : outputs) {
                readers.add(output.openReader(storage));
            }
            int partitions = readers.isEmpty() ? 0 : readers.get(0).numPartitions();
            ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER);
            for (int p = 0; p < partitions; p++) {
                for (PartitionReader reader : readers) {
                    long length = reader.length(p);
                    if (length == 0) {
                        continue;
                    }
                    long read = 0;
                    try (ReadableByteChannel in = reader.open(p)) {
                        int n;
                        while ((n = in.read(buffer.clear())) >= 0) {
                            read += n;
                        }
                    }
                    if (read != length) {
                        throw new EOFException("partition " + p + " of a map output held " + read + " bytes, its "
                                + "length is " + length);
                    }
                    bytes += read;
                }
            }
        } finally {
            for (PartitionReader reader : readers) {
                reader.close();
            }
        }
        return new Result(System.nanoTime() - start, bytes);
    }
}
