package dev.sluice.core.output;

import dev.sluice.core.io.Cleanup;
import dev.sluice.core.io.CountedStorage;
import dev.sluice.core.io.WritableFile;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Spark's atomic commit of a map output ({@code IndexShuffleBlockResolver.writeMetadataFileAndCommit}): the data is
 * written to a temp file; at commit an index temp file is written, both are forced to the device if asked, the index
 * is renamed into place and then the data file, so the data file is visible only when complete. Until
 * {@link #commit} succeeds, {@link #close} removes every file this commit made, renamed or not.
 */
public final class DataFileCommit implements AutoCloseable {
    private final CountedStorage storage;
    private final MapOutputFiles files;
    private final Path dataTemp;
    private final WritableFile data;
    private Path indexTemp;
    private boolean indexRenamed;
    private boolean finished;

    private DataFileCommit(CountedStorage storage, MapOutputFiles files, Path dataTemp, WritableFile data) {
        this.storage = storage;
        this.files = files;
        this.dataTemp = dataTemp;
        this.data = data;
    }

    /** Creates the data temp file. */
    public static DataFileCommit begin(CountedStorage storage, MapOutputFiles files) throws IOException {
        Path temp = MapOutputFiles.tempFor(files.dataFile());
        return new DataFileCommit(storage, files, temp, storage.create(temp));
    }

    /** The data temp file, for the strategy to fill with partitions 0..N-1, contiguous. */
    public WritableFile data() {
        return data;
    }

    /** Writes the index, forces if {@code fsync}, renames both into place. Cleans up everything if it fails. */
    public SparkMapOutput commit(long[] partitionLengths, boolean fsync) throws IOException {
        try {
            return commitOrThrow(partitionLengths, fsync);
        } catch (IOException | RuntimeException | Error e) {
            try {
                close();
            } catch (IOException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    private SparkMapOutput commitOrThrow(long[] partitionLengths, boolean fsync) throws IOException {
        long total = 0;
        for (long length : partitionLengths) {
            total += length;
        }
        long size = data.size();
        if (size != total) {
            throw new IOException("data file holds " + size + " bytes but the partition lengths add up to " + total);
        }
        indexTemp = MapOutputFiles.tempFor(files.indexFile());
        long indexBytes;
        try (WritableFile index = storage.create(indexTemp)) {
            indexBytes = index.write(IndexFile.encode(partitionLengths));
            if (fsync) {
                index.force();
            }
        }
        if (fsync) {
            data.force();
        }
        data.close();
        storage.rename(indexTemp, files.indexFile());
        indexRenamed = true;
        storage.rename(dataTemp, files.dataFile());
        finished = true;
        storage.markCommitted(files.indexFile(), indexBytes);
        storage.markCommitted(files.dataFile(), total);
        return new SparkMapOutput(files, partitionLengths.clone());
    }

    /** Aborts an uncommitted output: closes and deletes the temp files and an index already renamed. */
    @Override
    public void close() throws IOException {
        if (finished) {
            return;
        }
        finished = true;
        Cleanup cleanup = new Cleanup().run(data::close);
        for (Path path : indexRenamed ? new Path[] {dataTemp, files.indexFile()} : new Path[] {dataTemp, indexTemp}) {
            if (path != null) {
                cleanup.run(() -> storage.delete(path));
            }
        }
        cleanup.done();
    }
}
