package dev.sluice.spi.storage;

import dev.sluice.spi.WriterGiven;
import java.nio.ByteBuffer;
import java.util.zip.Checksum;

/**
 * Spark's shuffle checksums (3.2+, {@code spark.shuffle.checksum.enabled=true},
 * {@code spark.shuffle.checksum.algorithm} ADLER32 by default): one checksum per reduce partition over the bytes of
 * that partition in the data file, committed with the index as
 * {@code shuffle_<shuffleId>_<mapId>_0.checksum.<ALGORITHM>} (numPartitions big-endian longs). An empty partition
 * keeps the algorithm's initial value (Adler32's 1, CRC32's and CRC32C's 0). Not thread-safe: each partition is updated by one thread at a time.
 */
@WriterGiven
public final class PartitionChecksums {
    private final ChecksumAlgorithm algorithm;
    private final Checksum[] sums;

    public PartitionChecksums(int partitions, ChecksumAlgorithm algorithm) {
        this.algorithm = algorithm;
        sums = new Checksum[partitions];
        for (int p = 0; p < partitions; p++) {
            sums[p] = algorithm.newChecksum();
        }
    }

    /** The algorithm, which names the checksum file. */
    public ChecksumAlgorithm algorithm() {
        return algorithm;
    }

    /** The running checksum of {@code partition}, to update as its bytes are written. */
    public Checksum of(int partition) {
        return sums[partition];
    }

    /** Adds {@code bytes}' remaining bytes to {@code partition}'s checksum; their position does not move. */
    public void update(int partition, ByteBuffer bytes) {
        sums[partition].update(bytes.duplicate());
    }

    /** The checksum values, in partition order. */
    public long[] values() {
        long[] out = new long[sums.length];
        for (int p = 0; p < sums.length; p++) {
            out[p] = sums[p].getValue();
        }
        return out;
    }
}
