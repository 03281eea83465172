package dev.sluice.spi.storage;

import dev.sluice.spi.EngineOnly;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Spark's index file: the offset of each partition in the data file and the end, as big-endian longs. */
@EngineOnly
public final class IndexFile {
    private IndexFile() {}

    public static ByteBuffer encode(long[] partitionLengths) {
        ByteBuffer index = ByteBuffer.allocate((partitionLengths.length + 1) * Long.BYTES).order(ByteOrder.BIG_ENDIAN);
        long offset = 0;
        index.putLong(offset);
        for (long length : partitionLengths) {
            offset += length;
            index.putLong(offset);
        }
        return index.flip();
    }

    /** Spark's checksum file: each value as a big-endian long. */
    public static ByteBuffer encodeChecksums(long[] checksums) {
        ByteBuffer out = ByteBuffer.allocate(checksums.length * Long.BYTES).order(ByteOrder.BIG_ENDIAN);
        for (long c : checksums) {
            out.putLong(c);
        }
        return out.flip();
    }

    /** Offsets from an index file's bytes; checks they start at 0 and never decrease. */
    public static long[] decode(ByteBuffer bytes, String source) throws IOException {
        if (bytes.remaining() % Long.BYTES != 0 || bytes.remaining() < 2 * Long.BYTES) {
            throw new IOException(source + ": index of " + bytes.remaining() + " bytes is not 2 or more longs");
        }
        long[] offsets = new long[bytes.remaining() / Long.BYTES];
        ByteBuffer big = bytes.order(ByteOrder.BIG_ENDIAN);
        for (int i = 0; i < offsets.length; i++) {
            offsets[i] = big.getLong();
            if ((i == 0 && offsets[0] != 0) || (i > 0 && offsets[i] < offsets[i - 1])) {
                throw new IOException(source + ": offset " + i + " is " + offsets[i] + (i == 0 ? ", not 0" : ", below the one before"));
            }
        }
        return offsets;
    }
}
