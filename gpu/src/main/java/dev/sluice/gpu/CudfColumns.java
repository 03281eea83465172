package dev.sluice.gpu;

import ai.rapids.cudf.DType;
import ai.rapids.cudf.HostColumnVector;
import ai.rapids.cudf.HostColumnVectorCore;
import ai.rapids.cudf.HostMemoryBuffer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Arrow columns and cuDF host columns with the same rows, both ways, by copying buffers: the two share the layout
 * (little-endian values, LSB-first validity bits, int32 string offsets), so a row keeps its values, its nulls and its
 * UTF-8 bytes. cuDF wants a validity buffer padded to 64 bytes ({@link #validityBytes}); a column without nulls gets
 * none, as cuDF makes them.
 */
public final class CudfColumns {
    private CudfColumns() {}

    /** The cuDF type of an Arrow field Sluice generates; anything else is refused, naming the field. */
    public static DType dtypeOf(Field field) {
        ArrowType type = field.getType();
        if (type instanceof ArrowType.Int && ((ArrowType.Int) type).getIsSigned()) {
            int bits = ((ArrowType.Int) type).getBitWidth();
            if (bits == 64) {
                return DType.INT64;
            }
            if (bits == 32) {
                return DType.INT32;
            }
        } else if (type instanceof ArrowType.FloatingPoint
                && ((ArrowType.FloatingPoint) type).getPrecision() == FloatingPointPrecision.DOUBLE) {
            return DType.FLOAT64;
        } else if (type instanceof ArrowType.Utf8) {
            return DType.STRING;
        }
        throw new IllegalArgumentException("column " + field.getName() + " of type " + type
                + " has no cuDF counterpart here (int64, int32, float64 and utf8 do)");
    }

    /** cuDF's validity buffer size for {@code rows} rows: one bit a row, padded to 64 bytes. */
    public static long validityBytes(long rows) {
        long bytes = (rows + 7) / 8;
        return (bytes + 63) / 64 * 64;
    }

    /**
     * Host columns holding exactly {@code batch}'s rows, in buffers of {@code memory} (pinned or pageable); the
     * caller closes them.
     */
    public static HostColumnVector[] toHost(VectorSchemaRoot batch, HostMemory memory) {
        List<FieldVector> vectors = batch.getFieldVectors();
        HostColumnVector[] columns = new HostColumnVector[vectors.size()];
        try {
            for (int c = 0; c < columns.length; c++) {
                columns[c] = toHost(vectors.get(c), batch.getRowCount(), memory);
            }
            return columns;
        } catch (RuntimeException | Error e) {
            closeAll(columns);
            throw e;
        }
    }

    private static HostColumnVector toHost(FieldVector vector, int rows, HostMemory memory) {
        DType type = dtypeOf(vector.getField());
        int nulls = vector.getNullCount();
        List<HostMemoryBuffer> owned = new ArrayList<>(3);
        try {
            HostMemoryBuffer validity = null;
            if (nulls > 0) {
                validity = memory.allocate(validityBytes(rows));
                owned.add(validity);
                validity.setMemory(0, validity.getLength(), (byte) 0);
                copy(vector.getValidityBuffer(), validity, (rows + 7) / 8);
            }
            HostMemoryBuffer data;
            HostMemoryBuffer offsets = null;
            if (vector instanceof BaseVariableWidthVector) {
                BaseVariableWidthVector strings = (BaseVariableWidthVector) vector;
                long offsetBytes = (rows + 1L) * Integer.BYTES;
                offsets = memory.allocate(offsetBytes);
                owned.add(offsets);
                if (rows == 0) {
                    offsets.setInt(0, 0);
                } else if (strings.getOffsetBuffer().getInt(0) != 0) {
                    throw new IllegalArgumentException("column " + vector.getField().getName()
                            + " is a slice (its first offset is not 0): copy it to a batch of its own first");
                } else {
                    copy(strings.getOffsetBuffer(), offsets, offsetBytes);
                }
                int chars = rows == 0 ? 0 : strings.getOffsetBuffer().getInt((long) rows * Integer.BYTES);
                // cuDF's string column keeps a data buffer even when every string is empty.
                data = memory.allocate(Math.max(1, chars));
                owned.add(data);
                copy(strings.getDataBuffer(), data, chars);
            } else {
                long bytes = (long) rows * ((BaseFixedWidthVector) vector).getTypeWidth();
                data = memory.allocate(Math.max(1, bytes));
                owned.add(data);
                copy(vector.getDataBuffer(), data, bytes);
            }
            // The column owns its buffers from here on. cudf-java 26.02 (spark-rapids-jni's) makes only the
            // constructor with children public; a flat column has none.
            return new HostColumnVector(type, rows, Optional.of((long) nulls), data, validity, offsets,
                    new ArrayList<>());
        } catch (RuntimeException | Error e) {
            owned.forEach(HostMemoryBuffer::close);
            throw e;
        }
    }

    /**
     * An Arrow batch of {@code schema} with the rows of {@code columns} (all of one row count, as a JCudfSerialization
     * table unpacks), in buffers of {@code allocator}; the caller closes it.
     */
    public static VectorSchemaRoot toArrow(HostColumnVectorCore[] columns, Schema schema, BufferAllocator allocator) {
        if (columns.length != schema.getFields().size()) {
            throw new IllegalArgumentException(columns.length + " columns read for a schema of "
                    + schema.getFields().size() + ": " + schema);
        }
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        try {
            int rows = columns.length == 0 ? 0 : Math.toIntExact(columns[0].getRowCount());
            List<FieldVector> vectors = root.getFieldVectors();
            for (int c = 0; c < columns.length; c++) {
                HostColumnVectorCore column = columns[c];
                DType want = dtypeOf(vectors.get(c).getField());
                if (!column.getType().equals(want) || column.getRowCount() != rows) {
                    throw new IllegalArgumentException("column " + c + " is " + column.getType() + " of "
                            + column.getRowCount() + " rows, not " + want + " of " + rows);
                }
                load(vectors.get(c), column, rows, allocator);
            }
            root.setRowCount(rows);
            return root;
        } catch (RuntimeException | Error e) {
            root.close();
            throw e;
        }
    }

    private static void load(FieldVector vector, HostColumnVectorCore column, int rows, BufferAllocator allocator) {
        List<ArrowBuf> buffers = new ArrayList<>(3);
        try {
            ArrowBuf validity;
            int nulls = 0;
            // A column unpacked from JCudfSerialization does not know its null count (-1): count the bitmap.
            if (column.hasValidityVector() && rows > 0) {
                validity = allocator.buffer(validityBytes(rows));
                buffers.add(validity);
                copy(column.getValidity(), validity, (rows + 7) / 8);
                nulls = BitVectorHelper.getNullCount(validity, rows);
            } else {
                // Arrow makes an all-valid bitmap for a field node without nulls.
                validity = allocator.getEmpty();
                buffers.add(validity);
            }
            if (vector instanceof BaseVariableWidthVector) {
                long offsetBytes = (rows + 1L) * Integer.BYTES;
                ArrowBuf offsets = allocator.buffer(offsetBytes);
                buffers.add(offsets);
                int chars = 0;
                if (rows > 0) {
                    copy(column.getOffsets(), offsets, offsetBytes);
                    chars = offsets.getInt((long) rows * Integer.BYTES);
                } else {
                    offsets.setInt(0, 0);
                }
                ArrowBuf data = allocator.buffer(Math.max(1, chars));
                buffers.add(data);
                copy(column.getData(), data, chars);
            } else {
                long bytes = (long) rows * ((BaseFixedWidthVector) vector).getTypeWidth();
                ArrowBuf data = allocator.buffer(Math.max(1, bytes));
                buffers.add(data);
                copy(column.getData(), data, bytes);
            }
            vector.loadFieldBuffers(new ArrowFieldNode(rows, nulls), buffers);
        } finally {
            // loadFieldBuffers took its own references.
            buffers.forEach(ArrowBuf::close);
        }
    }

    private static void copy(ArrowBuf from, HostMemoryBuffer to, long bytes) {
        if (bytes > 0) {
            to.asByteBuffer(0, Math.toIntExact(bytes)).put(from.nioBuffer(0, Math.toIntExact(bytes)));
        }
    }

    private static void copy(HostMemoryBuffer from, ArrowBuf to, long bytes) {
        if (bytes > 0) {
            ByteBuffer target = to.nioBuffer(0, Math.toIntExact(bytes));
            target.put(from.asByteBuffer(0, Math.toIntExact(bytes)));
        }
    }

    /** Closes every one that is not null, all of them even when one fails (Arrow's {@code AutoCloseables}). */
    static void closeAll(AutoCloseable[] resources) {
        AutoCloseables.closeNoChecked(() -> AutoCloseables.close(resources));
    }
}
