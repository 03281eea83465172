package dev.sluice.spi.storage;

import dev.sluice.spi.MapOutput;
import dev.sluice.spi.PartitionReader;
import dev.sluice.spi.WriterGiven;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Path;
import java.util.List;

/** A map output in Spark's layout: one data file with partitions contiguous, and its index file. */
@WriterGiven
public final class SparkMapOutput implements MapOutput {
    private final MapOutputFiles files;
    private final long[] partitionLengths;
    private final List<Path> committed;

    /** @param committed the files of this output: data, index, and checksum file if one was written */
    public SparkMapOutput(MapOutputFiles files, long[] partitionLengths, List<Path> committed) {
        this.files = files;
        this.partitionLengths = partitionLengths;
        this.committed = List.copyOf(committed);
    }

    @Override
    public int shuffleId() {
        return files.shuffleId();
    }

    @Override
    public long mapId() {
        return files.mapId();
    }

    @Override
    public long[] partitionLengths() {
        return partitionLengths;
    }

    @Override
    public List<Path> files() {
        return committed;
    }

    /** Reads the index file from storage (not the lengths held here), as a reduce task would. */
    @Override
    public PartitionReader openReader(CountedStorage storage) throws IOException {
        return open(storage, files);
    }

    /** A reader of the map output committed under {@code files}, from its index and data files alone. */
    public static PartitionReader open(CountedStorage storage, MapOutputFiles files) throws IOException {
        long[] offsets;
        try (ReadableFile index = storage.openForRead(files.indexFile())) {
            ByteBuffer bytes = ByteBuffer.allocate((int) index.size());
            index.readFully(bytes, 0);
            offsets = IndexFile.decode(bytes.flip(), files.indexFile().toString());
        }
        ReadableFile data = storage.openForRead(files.dataFile());
        try {
            if (data.size() != offsets[offsets.length - 1]) {
                throw new IOException(files.dataFile() + " holds " + data.size() + " bytes, its index says "
                        + offsets[offsets.length - 1]);
            }
        } catch (IOException e) {
            data.close();
            throw e;
        }
        return new FileReader(offsets, data);
    }

    @Override
    public void delete(CountedStorage storage) throws IOException {
        for (Path file : committed) {
            storage.delete(file);
        }
    }

    private static final class FileReader implements PartitionReader {
        private final long[] offsets;
        private final ReadableFile data;

        FileReader(long[] offsets, ReadableFile data) {
            this.offsets = offsets;
            this.data = data;
        }

        @Override
        public int numPartitions() {
            return offsets.length - 1;
        }

        @Override
        public long length(int partition) {
            return offsets[checked(partition) + 1] - offsets[partition];
        }

        @Override
        public ReadableByteChannel open(int partition) {
            return data.range(offsets[checked(partition)], length(partition));
        }

        private int checked(int partition) {
            if (partition < 0 || partition >= numPartitions()) {
                throw new IndexOutOfBoundsException("partition " + partition + " of " + numPartitions());
            }
            return partition;
        }

        @Override
        public void close() throws IOException {
            data.close();
        }
    }
}
