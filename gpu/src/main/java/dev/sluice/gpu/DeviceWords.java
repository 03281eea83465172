package dev.sluice.gpu;

import ai.rapids.cudf.BinaryOp;
import ai.rapids.cudf.ColumnVector;
import ai.rapids.cudf.ColumnView;
import ai.rapids.cudf.DType;
import ai.rapids.cudf.Scalar;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link SparkHash.Words} as cuDF columns of {@code UINT32} on the device: unsigned 32-bit arithmetic in C++ wraps
 * modulo 2^32, as Java's ints do, and {@code SHIFT_RIGHT_UNSIGNED} is Java's {@code >>>}. Every column and scalar
 * made on the way is closed with this object; only the result of {@link #partitionIds} outlives it.
 */
final class DeviceWords implements SparkHash.Words<ColumnView, ColumnVector>, AutoCloseable {
    private final List<AutoCloseable> made = new ArrayList<>();

    /** Spark's partition id of each row of {@code keys} (INT64), as an INT32 column the caller closes. */
    static ColumnVector partitionIds(ColumnView keys, int numPartitions) {
        if (!keys.getType().equals(DType.INT64)) {
            throw new IllegalArgumentException("the key column is " + keys.getType() + ", not INT64");
        }
        try (DeviceWords words = new DeviceWords()) {
            ColumnVector ids = SparkHash.partitionIds(words, keys, numPartitions);
            // The result must outlive the scope: take it out of what the scope closes.
            words.made.remove(ids);
            return ids;
        }
    }

    private ColumnVector keep(ColumnVector column) {
        made.add(column);
        return column;
    }

    private Scalar scalar(Scalar scalar) {
        made.add(scalar);
        return scalar;
    }

    private ColumnVector op(ColumnView w, BinaryOp op, Scalar constant) {
        return keep(w.binaryOp(op, constant, DType.UINT32));
    }

    @Override
    public ColumnVector low32(ColumnView key) {
        return op(key, BinaryOp.BITWISE_AND, scalar(Scalar.fromLong(0xffff_ffffL)));
    }

    @Override
    public ColumnVector high32(ColumnView key) {
        return op(key, BinaryOp.SHIFT_RIGHT_UNSIGNED, scalar(Scalar.fromInt(32)));
    }

    @Override
    public ColumnVector multiply(ColumnVector w, int constant) {
        return op(w, BinaryOp.MUL, scalar(Scalar.fromUnsignedInt(constant)));
    }

    @Override
    public ColumnVector add(ColumnVector w, int constant) {
        return op(w, BinaryOp.ADD, scalar(Scalar.fromUnsignedInt(constant)));
    }

    @Override
    public ColumnVector xor(ColumnVector a, ColumnVector b) {
        return keep(a.binaryOp(BinaryOp.BITWISE_XOR, b, DType.UINT32));
    }

    @Override
    public ColumnVector xor(ColumnVector w, int constant) {
        return op(w, BinaryOp.BITWISE_XOR, scalar(Scalar.fromUnsignedInt(constant)));
    }

    @Override
    public ColumnVector shiftLeft(ColumnVector w, int bits) {
        return op(w, BinaryOp.SHIFT_LEFT, scalar(Scalar.fromInt(bits)));
    }

    @Override
    public ColumnVector shiftRight(ColumnVector w, int bits) {
        return op(w, BinaryOp.SHIFT_RIGHT_UNSIGNED, scalar(Scalar.fromInt(bits)));
    }

    @Override
    public ColumnVector or(ColumnVector a, ColumnVector b) {
        return keep(a.binaryOp(BinaryOp.BITWISE_OR, b, DType.UINT32));
    }

    /** The hash's bits as a signed int ({@code bitCastTo}, no copy), then cuDF's PMOD: Spark's {@code pmod}. */
    @Override
    public ColumnVector pmod(ColumnVector w, int n) {
        try (ColumnView signed = w.bitCastTo(DType.INT32)) {
            return keep(signed.binaryOp(BinaryOp.PMOD, scalar(Scalar.fromInt(n)), DType.INT32));
        }
    }

    @Override
    public void close() {
        CudfColumns.closeAll(made.toArray(new AutoCloseable[0]));
        made.clear();
    }
}
