package dev.sluice.gpu;

import ai.rapids.cudf.DType;
import ai.rapids.cudf.HostColumnVector;
import ai.rapids.cudf.HostMemoryBuffer;
import com.nvidia.spark.rapids.jni.kudo.KudoHostMergeResult;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The columns of a kudo merge on the host, as cuDF host columns over slices of its buffer.
 *
 * <p>Why reflection: kudo merges a partition's tables into one host buffer in cuDF's layout
 * ({@link KudoHostMergeResult}); spark-rapids then copies it to the device ({@code toTable()}), which needs a GPU.
 * Where each column's buffers lie in that host buffer is in {@code ColumnViewInfo} and {@code ColumnOffsetInfo},
 * which spark-rapids-jni 26.02 keeps package-private, without public getters. This class reads their fields by name,
 * and nothing else does; a spark-rapids-jni that renames them fails here, naming the field. Flat columns only, the
 * only ones Sluice makes ({@link CudfColumns#dtypeOf}).
 */
final class KudoMergedColumns {
    private static final String PACKAGE = "com.nvidia.spark.rapids.jni.kudo.";
    private static final Field DTYPE = field("ColumnViewInfo", "dtype");
    private static final Field OFFSET_INFO = field("ColumnViewInfo", "offsetInfo");
    private static final Field NULL_COUNT = field("ColumnViewInfo", "nullCount");
    private static final Field ROW_COUNT = field("ColumnViewInfo", "rowCount");
    private static final Field VALIDITY = field("ColumnOffsetInfo", "validity");
    private static final Field VALIDITY_LENGTH = field("ColumnOffsetInfo", "validityBufferLen");
    private static final Field OFFSETS = field("ColumnOffsetInfo", "offset");
    private static final Field OFFSETS_LENGTH = field("ColumnOffsetInfo", "offsetBufferLen");
    private static final Field DATA = field("ColumnOffsetInfo", "data");
    private static final Field DATA_LENGTH = field("ColumnOffsetInfo", "dataBufferLen");
    /** {@code ColumnOffsetInfo.INVALID_OFFSET}: the buffer is absent. */
    private static final long ABSENT = -1;

    private KudoMergedColumns() {}

    /** Host columns over {@code merged}'s buffer, which must stay open until they are closed; the caller closes. */
    static HostColumnVector[] of(KudoHostMergeResult merged) {
        Object[] infos = merged.getColumnInfoList();
        HostMemoryBuffer buffer = merged.getHostBuf();
        HostColumnVector[] columns = new HostColumnVector[infos.length];
        List<HostMemoryBuffer> owned = new ArrayList<>(3);
        try {
            for (int c = 0; c < infos.length; c++) {
                DType type = (DType) get(DTYPE, infos[c]);
                if (type.isNestedType()) {
                    throw new UnsupportedOperationException("column " + c + " is " + type + ": only flat columns are "
                            + "read from kudo's merged buffer");
                }
                Object offsets = get(OFFSET_INFO, infos[c]);
                owned.clear();
                HostMemoryBuffer validity = slice(buffer, offsets, VALIDITY, VALIDITY_LENGTH, owned);
                HostMemoryBuffer stringOffsets = slice(buffer, offsets, OFFSETS, OFFSETS_LENGTH, owned);
                HostMemoryBuffer data = slice(buffer, offsets, DATA, DATA_LENGTH, owned);
                if (data == null && type.equals(DType.STRING)) {
                    // Only empty or null strings: no data buffer in the merge; cuDF's string column keeps one.
                    data = HostMemoryBuffer.allocate(1, false);
                    owned.add(data);
                }
                // The column owns the slices from here on.
                columns[c] = new HostColumnVector(type, (Long) get(ROW_COUNT, infos[c]),
                        Optional.of((Long) get(NULL_COUNT, infos[c])), data, validity, stringOffsets,
                        new ArrayList<>());
                owned.clear();
            }
            return columns;
        } catch (RuntimeException | Error e) {
            owned.forEach(HostMemoryBuffer::close);
            CudfColumns.closeAll(columns);
            throw e;
        }
    }

    private static HostMemoryBuffer slice(HostMemoryBuffer buffer, Object offsets, Field at, Field length,
                                          List<HostMemoryBuffer> owned) {
        long start = (Long) get(at, offsets);
        if (start == ABSENT) {
            return null;
        }
        HostMemoryBuffer slice = buffer.slice(start, (Long) get(length, offsets));
        owned.add(slice);
        return slice;
    }

    private static Object get(Field field, Object from) {
        try {
            return field.get(from);
        } catch (IllegalAccessException e) {
            throw new UnsupportedOperationException("cannot read " + field + " of kudo's merge result", e);
        }
    }

    private static Field field(String type, String name) {
        try {
            Field field = Class.forName(PACKAGE + type, false, KudoMergedColumns.class.getClassLoader())
                    .getDeclaredField(name);
            field.setAccessible(true);
            return field;
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new UnsupportedOperationException("spark-rapids-jni's " + PACKAGE + type + " has no readable field '"
                    + name + "' (read as in spark-rapids-jni 26.02); KudoMergedColumns needs updating", e);
        }
    }
}
