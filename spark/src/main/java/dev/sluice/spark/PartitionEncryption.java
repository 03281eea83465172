package dev.sluice.spark;

import dev.sluice.spi.storage.ChecksumAlgorithm;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.storage.FilePurpose;
import dev.sluice.spi.storage.MapOutputFiles;
import dev.sluice.spi.storage.ReadableFile;
import dev.sluice.spi.storage.WritableFile;
import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.file.Path;
import java.util.zip.Checksum;
import org.apache.spark.serializer.SerializerManager;

/**
 * Spark's shuffle encryption ({@code spark.io.encryption.enabled}): Spark's reader decrypts each block as one crypto
 * stream ({@code SerializerManager.wrapStream}: an initialization vector, then AES/CTR), so a partition of pieces made
 * apart is encrypted once it is whole. Each non-empty partition of a strategy's committed data file goes through one
 * crypto stream of Spark's ({@code wrapForEncryption}, the application's key) into a new file beside it, which Spark
 * then takes over instead; an empty partition stays empty (a reader skips a block of length 0). The lengths become
 * the encrypted ones, and Spark's checksums are taken over the encrypted bytes, as Spark's writers checksum what they
 * put on disk ({@code DiskBlockObjectWriter}: the checksum stream lies under the crypto stream).
 *
 * <p>One more copy of the map output, on the map task's thread, the copy {@code UnsafeShuffleWriter} makes when it
 * merges encrypted spills ({@code mergeSpillsWithFileStream} decrypts each spill's segment and encrypts the partition
 * again; with encryption it never merges by {@code transferTo}).
 */
final class PartitionEncryption {
    /** The copy's buffer: a read of the plain file and a write of the encrypted one at a time. */
    private static final int BUFFER = 64 * 1024;

    private final SerializerManager serializers;

    private PartitionEncryption(SerializerManager serializers) {
        this.serializers = serializers;
    }

    /** The application's encryption, or null where {@code spark.io.encryption.enabled} is off. */
    static PartitionEncryption of(SerializerManager serializers) {
        return serializers.encryptionEnabled() ? new PartitionEncryption(serializers) : null;
    }

    /** The encrypted data file and its partitions' checksums. */
    record Sealed(Path file, long[] checksums) {}

    /**
     * Encrypts {@code plain}'s partitions, of {@code lengths} (replaced by the encrypted lengths), into a new file
     * beside it; the checksums of {@code algorithm} over the encrypted partitions, or none where it is null. On
     * failure the new file is removed; {@code plain} is the caller's either way.
     */
    Sealed seal(CountedStorage storage, Path plain, long[] lengths, ChecksumAlgorithm algorithm) throws IOException {
        Path sealed = MapOutputFiles.tempFor(plain);
        long[] sums = algorithm == null ? new long[0] : new long[lengths.length];
        boolean done = false;
        try (ReadableFile in = storage.openForRead(plain);
             WritableFile out = storage.create(sealed, FilePurpose.MAP_OUTPUT)) {
            OutputStream file = new BufferedOutputStream(Channels.newOutputStream(out), BUFFER);
            byte[] copy = new byte[BUFFER];
            long offset = 0;
            for (int p = 0; p < lengths.length; p++) {
                long length = lengths[p];
                Partition partition = new Partition(file, algorithm == null ? null : algorithm.newChecksum());
                if (length > 0) {
                    try (OutputStream encrypted = serializers.wrapForEncryption(partition);
                         InputStream bytes = Channels.newInputStream(in.range(offset, length))) {
                        for (int n = bytes.read(copy); n >= 0; n = bytes.read(copy)) {
                            encrypted.write(copy, 0, n);
                        }
                    }
                }
                offset += length;
                lengths[p] = partition.bytes;
                if (algorithm != null) {
                    sums[p] = partition.checksum.getValue();
                }
            }
            file.flush();
            done = true;
        } finally {
            if (!done) {
                storage.delete(sealed);
            }
        }
        return new Sealed(sealed, sums);
    }

    /**
     * One partition's encrypted bytes on their way into the file: counted and checksummed; closing the crypto stream
     * above it (which writes its last block) leaves the file open for the next partition.
     */
    private static final class Partition extends FilterOutputStream {
        final Checksum checksum;
        long bytes;

        Partition(OutputStream file, Checksum checksum) {
            super(file);
            this.checksum = checksum;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            bytes++;
            if (checksum != null) {
                checksum.update(b);
            }
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            bytes += len;
            if (checksum != null) {
                checksum.update(b, off, len);
            }
        }

        @Override
        public void close() {
            // the file stays open: the next partition follows
        }
    }
}
