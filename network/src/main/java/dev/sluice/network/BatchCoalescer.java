package dev.sluice.network;

import java.util.List;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.VectorAppender;

/**
 * Copies small batches of one schema into batches of exactly {@code targetRows} rows (the last may be shorter), as
 * DataFusion's {@code CoalesceBatchesExec} does with arrow-rs's {@code BatchCoalescer}; Arrow Java has none. Rows are
 * appended a vector at a time with Arrow's {@code VectorAppender} (validity bits concatenated, offsets rebased, data
 * copied in bulk), never row by row, into vectors allocated for {@code targetRows} rows up front, variable-width data
 * sized from the first rows appended. A batch longer than what the batch in progress lacks is split (a zero-copy
 * slice) so that every emitted batch has exactly the target. Counts the bytes it copies.
 */
public final class BatchCoalescer implements AutoCloseable {
    private final Schema schema;
    private final int targetRows;
    private final BufferAllocator allocator;
    private VectorSchemaRoot building;
    private long bytesCopied;
    private long rowsCopied;
    private long batchesOut;

    public BatchCoalescer(Schema schema, int targetRows, BufferAllocator allocator) {
        if (targetRows < 1) {
            throw new dev.sluice.spi.InvalidParameterException("targetRows", targetRows, "an integer >= 1");
        }
        this.schema = schema;
        this.targetRows = targetRows;
        this.allocator = allocator;
    }

    /**
     * Copies {@code rows} in; hands each batch that reaches {@code targetRows} to {@code full}, which owns it (closes
     * it). {@code rows} stays the caller's.
     */
    public void append(VectorSchemaRoot rows, Consumer<VectorSchemaRoot> full) {
        int count = rows.getRowCount();
        int from = 0;
        while (from < count) {
            if (building == null) {
                building = allocate(rows);
            }
            int take = Math.min(count - from, targetRows - building.getRowCount());
            if (from == 0 && take == count) {
                copy(rows);
            } else {
                try (VectorSchemaRoot part = rows.slice(from, take)) {
                    copy(part);
                }
            }
            from += take;
            if (building.getRowCount() == targetRows) {
                emit(full);
            }
        }
    }

    /** Hands the batch in progress, if it holds any rows, to {@code last}. */
    public void finish(Consumer<VectorSchemaRoot> last) {
        if (building != null && building.getRowCount() > 0) {
            emit(last);
        }
    }

    private void emit(Consumer<VectorSchemaRoot> to) {
        VectorSchemaRoot out = building;
        building = null;
        batchesOut++;
        to.accept(out);
    }

    private void copy(VectorSchemaRoot part) {
        List<FieldVector> from = part.getFieldVectors();
        List<FieldVector> to = building.getFieldVectors();
        for (int c = 0; c < from.size(); c++) {
            from.get(c).accept(new VectorAppender(to.get(c)), null);
            bytesCopied += from.get(c).getBufferSize();
        }
        rowsCopied += part.getRowCount();
        building.setRowCount(building.getRowCount() + part.getRowCount());
    }

    /** Vectors for {@code targetRows} rows; variable-width data at the density of {@code sample}. */
    private VectorSchemaRoot allocate(VectorSchemaRoot sample) {
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        try {
            List<FieldVector> vectors = root.getFieldVectors();
            for (int c = 0; c < vectors.size(); c++) {
                FieldVector v = vectors.get(c);
                if (v instanceof BaseVariableWidthVector && sample.getRowCount() > 0) {
                    BaseVariableWidthVector s = (BaseVariableWidthVector) sample.getVector(c);
                    double density = Math.max(1.0, (double) s.sizeOfValueBuffer() / sample.getRowCount());
                    ((BaseVariableWidthVector) v).setInitialCapacity(targetRows, density);
                } else {
                    v.setInitialCapacity(targetRows);
                }
                v.allocateNew();
            }
            return root;
        } catch (RuntimeException | Error e) {
            root.close();
            throw e;
        }
    }

    /** Bytes of Arrow buffers copied in (validity, offsets, data), over every append. */
    public long bytesCopied() {
        return bytesCopied;
    }

    public long rowsCopied() {
        return rowsCopied;
    }

    /** Batches handed out. */
    public long batches() {
        return batchesOut;
    }

    @Override
    public void close() {
        if (building != null) {
            building.close();
            building = null;
        }
    }
}
