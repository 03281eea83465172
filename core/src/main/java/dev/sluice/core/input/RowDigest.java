package dev.sluice.core.input;

import java.nio.ByteBuffer;
import java.util.List;
import net.jpountz.xxhash.XXHash64;
import net.jpountz.xxhash.XXHashFactory;
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
    private static final XXHash64 XXHASH = XXHashFactory.fastestJavaInstance().hash64();
    private static final long NULL_VALUE = 0x6e756c6c6e756c6cL;

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

    private static void hashFixed(BaseFixedWidthVector v, int rows, long salt, long[] out) {
        int width = v.getTypeWidth();
        var data = v.getDataBuffer();
        for (int i = 0; i < rows; i++) {
            long value;
            if (v.isNull(i)) {
                value = NULL_VALUE;
            } else if (width == 8) {
                value = data.getLong((long) i * 8);
            } else if (width == 4) {
                value = data.getInt((long) i * 4);
            } else {
                throw new IllegalArgumentException("unsupported width " + width + " of " + v.getField());
            }
            out[i] = Mix.mix64(out[i] * 31 + (value ^ salt));
        }
    }

    private static void hashVariable(BaseVariableWidthVector v, int rows, long salt, long[] out) {
        var offsets = v.getOffsetBuffer();
        var data = v.getDataBuffer();
        ByteBuffer bytes = rows == 0 || data.capacity() == 0 ? null : data.nioBuffer(0, (int) data.capacity());
        for (int i = 0; i < rows; i++) {
            long value;
            if (v.isNull(i)) {
                value = NULL_VALUE;
            } else {
                int start = offsets.getInt((long) i * 4);
                int end = offsets.getInt((long) (i + 1) * 4);
                value = end == start ? 0 : XXHASH.hash(bytes, start, end - start, 0);
            }
            out[i] = Mix.mix64(out[i] * 31 + (value ^ salt));
        }
    }
}
