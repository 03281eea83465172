package dev.sluice.spi.storage;

import dev.sluice.spi.WriterGiven;
import java.nio.file.Path;
import java.util.UUID;

/** Spark's file names for one map task's output in a directory. */
@WriterGiven
public final class MapOutputFiles {
    private final Path directory;
    private final int shuffleId;
    private final long mapId;

    public MapOutputFiles(Path directory, int shuffleId, long mapId) {
        this.directory = directory;
        this.shuffleId = shuffleId;
        this.mapId = mapId;
    }

    public Path directory() {
        return directory;
    }

    public int shuffleId() {
        return shuffleId;
    }

    public long mapId() {
        return mapId;
    }

    /** {@code shuffle_<shuffleId>_<mapId>_0.data} ({@code ShuffleDataBlockId}, reduce id 0 by convention). */
    public Path dataFile() {
        return directory.resolve("shuffle_" + shuffleId + "_" + mapId + "_0.data");
    }

    /** {@code shuffle_<shuffleId>_<mapId>_0.index}: numPartitions+1 big-endian longs. */
    public Path indexFile() {
        return directory.resolve("shuffle_" + shuffleId + "_" + mapId + "_0.index");
    }

    /** {@code shuffle_<shuffleId>_<mapId>_0.checksum.ADLER32}: the checksum file at Spark's default algorithm. */
    public Path checksumFile() {
        return checksumFile(ChecksumAlgorithm.ADLER32);
    }

    /**
     * {@code shuffle_<shuffleId>_<mapId>_0.checksum.<ALGORITHM>}: numPartitions big-endian longs (Spark 3.2+,
     * {@code ShuffleChecksumHelper.getChecksumFileName}).
     */
    public Path checksumFile(ChecksumAlgorithm algorithm) {
        return directory.resolve("shuffle_" + shuffleId + "_" + mapId + "_0.checksum." + algorithm.name());
    }

    /** Where a file is written before its commit renames it into place ({@code Utils.tempFileWith}). */
    public static Path tempFor(Path file) {
        return file.resolveSibling(file.getFileName() + "." + UUID.randomUUID());
    }

    /** A fresh name for a writer's scratch file ({@code TempShuffleBlockId}). */
    public Path newTempShuffleFile() {
        return directory.resolve("temp_shuffle_" + UUID.randomUUID());
    }
}
