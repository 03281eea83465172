package dev.sluice.spi.storage;

import dev.sluice.spi.WriterGiven;
import java.nio.ByteBuffer;
import java.util.zip.Adler32;
import java.util.zip.Checksum;

/**
 * Spark's shuffle checksums (3.2+, {@code spark.shuffle.checksum.enabled=true}, algorithm {@code ADLER32}): one
 * Adler32 per reduce partition over the bytes of that partition in the data file, committed with the index as
 * {@code shuffle_<shuffleId>_<mapId>_0.checksum.ADLER32} (numPartitions big-endian longs). An empty partition keeps
 * Adler32's initial value, 1. Not thread-safe: each partition is updated by one thread at a time.
 */
@WriterGiven
public final class PartitionChecksums {
    /** {@code spark.shuffle.checksum.algorithm}'s default, as the file name suffix writes it. */
    public static final String ALGORITHM = "ADLER32";

    private final Adler32[] sums;

    public PartitionChecksums(int partitions) {
        sums = new Adler32[partitions];
        for (int p = 0; p < partitions; p++) {
            sums[p] = new Adler32();
        }
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
