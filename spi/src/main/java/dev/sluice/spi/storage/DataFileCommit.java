package dev.sluice.spi.storage;

import dev.sluice.spi.WriterGiven;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Spark's atomic commit of a map output ({@code IndexShuffleBlockResolver.writeMetadataFileAndCommit}): the data is
 * written to a temp file; at commit an index temp file is written, both are forced to the device if asked, the index
 * is renamed into place and then the data file, and then the checksum file (when checksums are given) is written and
 * renamed, so the data file is visible only when complete. Until {@link #commit} succeeds, {@link #close} removes
 * every file this commit made, renamed or not. (Spark only logs a failure to write the checksum file; here it fails
 * the commit like any other, so that a failed map task leaves nothing.)
 */
@WriterGiven
public final class DataFileCommit implements AutoCloseable {
    private final CountedStorage storage;
    private final MapOutputFiles files;
    private final Path dataTemp;
    private final WritableFile data;
    private final List<Path> made = new ArrayList<>();
    private boolean finished;

    private DataFileCommit(CountedStorage storage, MapOutputFiles files, WritableFile data) {
        this.storage = storage;
        this.files = files;
        this.dataTemp = data.path();
        this.data = data;
        made.add(dataTemp);
    }

    /** Creates the data temp file. */
    public static DataFileCommit begin(CountedStorage storage, MapOutputFiles files) throws IOException {
        return new DataFileCommit(storage, files, storage.create(MapOutputFiles.tempFor(files.dataFile()), FilePurpose.MAP_OUTPUT));
    }

    /**
     * Takes over a file that already holds the whole data file (a single batch's partial file, which upstream's
     * {@code RapidsLocalDiskShuffleMapOutputWriter} renames into place): from now on this commit owns it, open.
     */
    public static DataFileCommit adopt(CountedStorage storage, MapOutputFiles files, WritableFile data) {
        return new DataFileCommit(storage, files, data);
    }

    /** The data temp file, for the strategy to fill with partitions 0..N-1, contiguous. */
    public WritableFile data() {
        return data;
    }

    /** {@link #commit(long[], PartitionChecksums, boolean)} without checksums. */
    public SparkMapOutput commit(long[] partitionLengths, boolean fsync) throws IOException {
        return commit(partitionLengths, (PartitionChecksums) null, fsync);
    }

    /**
     * Writes the index, forces if {@code fsync}, renames index and data into place, then writes the checksum file if
     * {@code checksums} is not null (named after their algorithm). Cleans up everything if any step fails.
     */
    public SparkMapOutput commit(long[] partitionLengths, PartitionChecksums checksums, boolean fsync)
            throws IOException {
        try {
            return commitOrThrow(partitionLengths, checksums, fsync);
        } catch (IOException | RuntimeException | Error e) {
            try {
                close();
            } catch (IOException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    private SparkMapOutput commitOrThrow(long[] partitionLengths, PartitionChecksums partitionChecksums, boolean fsync)
            throws IOException {
        long[] checksums = partitionChecksums == null ? null : partitionChecksums.values();
        long total = 0;
        for (long length : partitionLengths) {
            total += length;
        }
        long size = data.size();
        if (size != total) {
            throw new IOException("data file holds " + size + " bytes but the partition lengths add up to " + total);
        }
        if (checksums != null && checksums.length != partitionLengths.length) {
            throw new IllegalArgumentException(checksums.length + " checksums for " + partitionLengths.length + " partitions");
        }
        Path indexTemp = MapOutputFiles.tempFor(files.indexFile());
        writeMetadata(indexTemp, IndexFile.encode(partitionLengths), fsync);
        if (fsync) {
            data.force();
        }
        data.close();
        rename(indexTemp, files.indexFile());
        rename(dataTemp, files.dataFile());
        List<Path> committed = new ArrayList<>(List.of(files.dataFile(), files.indexFile()));
        if (checksums != null) {
            Path checksumFile = files.checksumFile(partitionChecksums.algorithm());
            Path checksumTemp = MapOutputFiles.tempFor(checksumFile);
            writeMetadata(checksumTemp, IndexFile.encodeChecksums(checksums), fsync);
            rename(checksumTemp, checksumFile);
            committed.add(checksumFile);
        }
        storage.commit(committed);
        finished = true;
        return new SparkMapOutput(files, partitionLengths.clone(), committed);
    }

    /** Writes a metadata file (index or checksums) in one call, forced if asked. */
    private void writeMetadata(Path temp, java.nio.ByteBuffer bytes, boolean fsync) throws IOException {
        made.add(temp);
        try (WritableFile file = storage.create(temp, FilePurpose.MAP_OUTPUT)) {
            file.write(bytes);
            if (fsync) {
                file.force();
            }
        }
    }

    private void rename(Path from, Path to) throws IOException {
        storage.rename(from, to);
        made.remove(from);
        made.add(to);
    }

    /** Aborts an uncommitted output: closes and deletes every file it made, temp or already renamed. */
    @Override
    public void close() throws IOException {
        if (finished) {
            return;
        }
        finished = true;
        Cleanup cleanup = new Cleanup().run(data::close);
        for (Path path : made) {
            cleanup.run(() -> storage.delete(path));
        }
        cleanup.done();
    }
}
