package dev.sluice.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.rapids.cudf.DType;
import ai.rapids.cudf.HostColumnVector;
import dev.sluice.core.input.BatchGenerator;
import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.input.KeyDistribution;
import dev.sluice.core.input.MapTaskInput;
import dev.sluice.core.input.RowDigest;
import dev.sluice.core.input.SchemaSpec;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Test;

/** Arrow batches become cuDF host columns with the same rows (values, nulls, UTF-8 bytes), and back. */
class CudfColumnsTest {
    static final SchemaSpec EVERY_TYPE = SchemaSpec.parse("columns", "int32,int32?,float64,float64?,int64?,utf8,utf8?");

    static MapTaskInput input(BufferAllocator allocator, int batches) {
        InputSpec spec = new InputSpec(DataSize.TINY, 0.05, InputSpec.DEFAULT_ROWS_PER_BATCH, KeyDistribution.UNIFORM,
                7, EVERY_TYPE).withBatches(batches);
        return BatchGenerator.generate(spec, allocator);
    }

    @Test
    void everyValueNullAndStringOfAnArrowBatchIsInTheHostColumns() {
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskInput input = input(allocator, 2)) {
            HostMemory memory = HostMemory.pageable();
            for (VectorSchemaRoot batch : input.batches()) {
                HostColumnVector[] host = CudfColumns.toHost(batch, memory);
                try {
                    List<FieldVector> vectors = batch.getFieldVectors();
                    assertEquals(vectors.size(), host.length);
                    long nulls = 0;
                    for (int c = 0; c < host.length; c++) {
                        FieldVector v = vectors.get(c);
                        assertEquals(batch.getRowCount(), host[c].getRowCount(), v.getField().getName());
                        assertEquals(v.getNullCount(), host[c].getNullCount(), v.getField().getName());
                        nulls += v.getNullCount();
                        for (int r = 0; r < batch.getRowCount(); r++) {
                            assertEquals(v.isNull(r), host[c].isNull(r), v.getField().getName() + " row " + r);
                            if (v.isNull(r)) {
                                continue;
                            }
                            if (v instanceof BigIntVector) {
                                assertEquals(((BigIntVector) v).get(r), host[c].getLong(r));
                            } else if (v instanceof IntVector) {
                                assertEquals(((IntVector) v).get(r), host[c].getInt(r));
                            } else if (v instanceof Float8Vector) {
                                assertEquals(Double.doubleToRawLongBits(((Float8Vector) v).get(r)),
                                        Double.doubleToRawLongBits(host[c].getDouble(r)));
                            } else {
                                assertEquals(new String(((VarCharVector) v).get(r), StandardCharsets.UTF_8),
                                        host[c].getJavaString(r));
                            }
                        }
                    }
                    assertTrue(nulls > 0, "the input has nulls to carry");
                } finally {
                    CudfColumns.closeAll(host);
                }
            }
            assertEquals(0, memory.openBuffers(), "host buffers left open");
            assertEquals(0, memory.usage().pinnedBuffers, "no pinned pool was made");
        }
    }

    @Test
    void hostColumnsReadBackIntoArrowHaveTheSameRowHashes() {
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskInput input = input(allocator, 3)) {
            HostMemory memory = HostMemory.pageable();
            for (VectorSchemaRoot batch : input.batches()) {
                HostColumnVector[] host = CudfColumns.toHost(batch, memory);
                try {
                    assertSameRows(batch, host, allocator, "round trip");
                } finally {
                    CudfColumns.closeAll(host);
                }
            }
            assertEquals(0, memory.openBuffers());
        }
    }

    /** The host columns, read back into Arrow, hold {@code batch}'s rows in its order, row hash by row hash. */
    static void assertSameRows(VectorSchemaRoot batch, HostColumnVector[] host, BufferAllocator allocator,
                               String what) {
        try (VectorSchemaRoot back = CudfColumns.toArrow(host, batch.getSchema(), allocator)) {
            assertEquals(batch.getRowCount(), back.getRowCount(), what);
            long[] want = new long[batch.getRowCount()];
            long[] got = new long[batch.getRowCount()];
            RowDigest.rowHashes(batch, want);
            RowDigest.rowHashes(back, got);
            for (int r = 0; r < want.length; r++) {
                assertEquals(want[r], got[r], what + ", row " + r);
            }
        }
    }

    @Test
    void validityIsPaddedTo64BytesAsCudfWantsIt() {
        assertEquals(64, CudfColumns.validityBytes(1));
        assertEquals(64, CudfColumns.validityBytes(512));
        assertEquals(128, CudfColumns.validityBytes(513));
        assertEquals(0, CudfColumns.validityBytes(0));
    }

    @Test
    void aBatchWithNoRowsConvertsToEmptyColumns() {
        try (BufferAllocator allocator = new RootAllocator();
             VectorSchemaRoot empty = VectorSchemaRoot.create(EVERY_TYPE.arrowSchema(), allocator)) {
            empty.allocateNew();
            empty.setRowCount(0);
            HostMemory memory = HostMemory.pageable();
            HostColumnVector[] host = CudfColumns.toHost(empty, memory);
            try (VectorSchemaRoot back = CudfColumns.toArrow(host, empty.getSchema(), allocator)) {
                assertEquals(0, back.getRowCount());
                assertEquals(DType.STRING, host[host.length - 1].getType());
            } finally {
                CudfColumns.closeAll(host);
            }
            assertEquals(0, memory.openBuffers());
        }
    }

    @Test
    void aColumnTypeWithoutACudfCounterpartIsRefusedByName() {
        Field field = new Field("price", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)),
                null);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CudfColumns.dtypeOf(field));
        assertTrue(e.getMessage().contains("price") && e.getMessage().contains("int64, int32, float64 and utf8"),
                e.getMessage());
    }
}
