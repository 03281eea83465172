package dev.sluice.core.verify;

import dev.sluice.spi.PartitionReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.Arrays;
import net.jpountz.xxhash.StreamingXXHash64;
import net.jpountz.xxhash.XXHashFactory;

/**
 * A fingerprint of a map output's bytes: the XXHash64 of each partition's bytes. Once an output has been verified row
 * by row against its {@link Expected}, any later output of the same input, codec and strategy must have the same
 * digest, which is far cheaper to check than rows: every measured iteration's output is checked this way.
 */
public final class OutputDigest {
    private static final XXHashFactory HASHES = XXHashFactory.fastestInstance();

    private final long[] partitions;

    private OutputDigest(long[] partitions) {
        this.partitions = partitions;
    }

    public static OutputDigest of(PartitionReader reader) throws IOException {
        long[] digests = new long[reader.numPartitions()];
        ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
        for (int p = 0; p < digests.length; p++) {
            try (StreamingXXHash64 hash = HASHES.newStreamingHash64(0);
                 ReadableByteChannel in = reader.open(p)) {
                while (in.read(buffer.clear()) >= 0) {
                    hash.update(buffer.array(), 0, buffer.position());
                }
                digests[p] = hash.getValue();
            }
        }
        return new OutputDigest(digests);
    }

    /** One line: each partition's digest in hex, separated by spaces ({@link #parse} reads it back). */
    public String format() {
        StringBuilder line = new StringBuilder();
        for (int p = 0; p < partitions.length; p++) {
            line.append(p == 0 ? "" : " ").append(Long.toHexString(partitions[p]));
        }
        return line.toString();
    }

    /** Reads what {@link #format} wrote. */
    public static OutputDigest parse(String line) {
        String trimmed = line.trim();
        if (trimmed.isEmpty()) {
            return new OutputDigest(new long[0]);
        }
        String[] words = trimmed.split(" ");
        long[] digests = new long[words.length];
        for (int p = 0; p < words.length; p++) {
            try {
                digests[p] = Long.parseUnsignedLong(words[p], 16);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not an output digest: partition " + p + " is '" + words[p] + "'",
                        e);
            }
        }
        return new OutputDigest(digests);
    }

    /** The first partition whose bytes differ from {@code expected}'s, or -1 if none does. */
    public int firstDifference(OutputDigest expected) {
        if (expected.partitions.length != partitions.length) {
            return 0;
        }
        for (int p = 0; p < partitions.length; p++) {
            if (partitions[p] != expected.partitions[p]) {
                return p;
            }
        }
        return -1;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OutputDigest && Arrays.equals(partitions, ((OutputDigest) o).partitions);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(partitions);
    }
}
