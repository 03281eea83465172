package dev.sluice.core.input;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * A 64-bit hash of each row's values (not of Arrow's buffers, whose padding and null slots are unspecified), and an
 * order-sensitive fold of row hashes. Input fingerprints and the verifier's per-partition checksums both use it, so a
 * partition read back matches its reference exactly when the same rows arrive in the same order.
 */
public final class RowDigest {
    private static final long NULL_VALUE = 0x6e756c6c6e756c6cL;
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private RowDigest() {}

    /** Folds one row hash into a running digest; the order of rows matters. */
    public static long fold(long digest, long rowHash) {
        return Mix.mix64(digest * 0x9e3779b97f4a7c15L + rowHash);
    }

    /** Writes the hash of each row of {@code root} into {@code out[0..rowCount)}. */
    public static void rowHashes(VectorSchemaRoot root, long[] out) {
        int rows = root.getRowCount();
        java.util.Arrays.fill(out, 0, rows, 0x5eedL);
        List<FieldVector> vectors = root.getFieldVectors();
        for (int c = 0; c < vectors.size(); c++) {
            FieldVector v = vectors.get(c);
            long salt = Mix.mix64(c + 1);
            if (v instanceof BaseFixedWidthVector) {
                hashFixed((BaseFixedWidthVector) v, rows, salt, out);
            } else if (v instanceof BaseVariableWidthVector) {
                hashVariable((BaseVariableWidthVector) v, rows, salt, out);
            } else {
                throw new IllegalArgumentException("unsupported column type " + v.getField());
            }
        }
    }

    /*
     * Values are read through little-endian ByteBuffer views of Arrow's buffers: ArrowBuf's own getters check bounds
     * and the reference count on every call, which made them a fifth of generating and verifying an input.
     */

    private static void hashFixed(BaseFixedWidthVector v, int rows, long salt, long[] out) {
        int width = v.getTypeWidth();
        if (width != 8 && width != 4) {
            throw new IllegalArgumentException("unsupported width " + width + " of " + v.getField());
        }
        ByteBuffer validity = view(v.getValidityBuffer());
        ByteBuffer data = view(v.getDataBuffer());
        for (int i = 0; i < rows; i++) {
            long value;
            if (isNull(validity, i)) {
                value = NULL_VALUE;
            } else if (width == 8) {
                value = data.getLong(i * 8);
            } else {
                value = data.getInt(i * 4);
            }
            out[i] = Mix.mix64(out[i] * 31 + (value ^ salt));
        }
    }

    private static void hashVariable(BaseVariableWidthVector v, int rows, long salt, long[] out) {
        ByteBuffer validity = view(v.getValidityBuffer());
        ByteBuffer offsets = view(v.getOffsetBuffer());
        ByteBuffer bytes = view(v.getDataBuffer());
        for (int i = 0; i < rows; i++) {
            long value;
            if (isNull(validity, i)) {
                value = NULL_VALUE;
            } else {
                int start = offsets.getInt(i * 4);
                int end = offsets.getInt((i + 1) * 4);
                value = end == start ? 0 : hashBytes(bytes, start, end);
            }
            out[i] = Mix.mix64(out[i] * 31 + (value ^ salt));
        }
    }

    /**
     * A 64-bit hash of {@code bytes[start, end)}: eight bytes at a time, multiplied and rotated in, then the tail, then
     * SplitMix64's finalizer. Values are short (a few to a few dozen bytes), where XXHash64's per-call set-up cost
     * more than the hashing itself (it was a third of the time spent making an input).
     */
    static long hashBytes(ByteBuffer bytes, int start, int end) {
        long h = (end - start) * 0x9e3779b97f4a7c15L;
        int i = start;
        for (; i + Long.BYTES <= end; i += Long.BYTES) {
            h = Long.rotateLeft((h ^ bytes.getLong(i)) * 0xbf58476d1ce4e5b9L, 31);
        }
        long tail = 0;
        for (int shift = 0; i < end; i++, shift += 8) {
            tail |= (bytes.get(i) & 0xffL) << shift;
        }
        return Mix.mix64((h ^ tail) * 0x94d049bb133111ebL);
    }

    private static ByteBuffer view(ArrowBuf buffer) {
        long capacity = buffer.capacity();
        if (capacity > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a column buffer of " + capacity + " bytes is past what row hashing "
                    + "reads (2 GiB); cut the input into more batches");
        }
        return capacity == 0 ? EMPTY : buffer.nioBuffer(0, (int) capacity).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Arrow's validity bitmap: bit {@code i % 8} of byte {@code i / 8}, set when the value is present. */
    private static boolean isNull(ByteBuffer validity, int i) {
        return (validity.get(i >>> 3) & (1 << (i & 7))) == 0;
    }
}
