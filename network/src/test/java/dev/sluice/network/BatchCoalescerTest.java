package dev.sluice.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.core.input.BatchGenerator;
import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.input.MapTaskInput;
import dev.sluice.spi.InvalidParameterException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

class BatchCoalescerTest {

    @Test
    void batchesOfTargetRowsHoldTheSameValuesNullsAndStringsInOrderAcrossSplitSlices() {
        try (BufferAllocator allocator = new RootAllocator()) {
            try (MapTaskInput input = BatchGenerator.generate(InputSpec.of(DataSize.TINY, 0.05).withRowsPerBatch(333),
                    allocator)) {
                List<VectorSchemaRoot> out = new ArrayList<>();
                long copied;
                try (BatchCoalescer coalescer = new BatchCoalescer(input.schema(), 250, allocator)) {
                    for (VectorSchemaRoot batch : input.batches()) {
                        coalescer.append(batch, out::add);
                    }
                    coalescer.finish(out::add);
                    copied = coalescer.bytesCopied();
                    assertEquals(input.rows(), coalescer.rowsCopied());
                    assertEquals(out.size(), coalescer.batches());
                }
                try {
                    for (int i = 0; i < out.size() - 1; i++) {
                        assertEquals(250, out.get(i).getRowCount(), "batch " + i);
                    }
                    assertEquals(input.rows(), out.stream().mapToLong(VectorSchemaRoot::getRowCount).sum());
                    assertEquals(values(input.batches()), values(out));
                    long inputBytes = 0;
                    for (VectorSchemaRoot b : input.batches()) {
                        for (FieldVector v : b.getFieldVectors()) {
                            inputBytes += v.getBufferSize();
                        }
                    }
                    assertEquals(true, copied >= inputBytes * 9 / 10 && copied <= inputBytes * 2,
                            "copied " + copied + " bytes of " + inputBytes);
                } finally {
                    out.forEach(VectorSchemaRoot::close);
                }
            }
            assertEquals(0, allocator.getAllocatedMemory());
        }
    }

    @Test
    void aTargetBelowOneRowIsRefusedNamingTheParameter() {
        try (BufferAllocator allocator = new RootAllocator()) {
            InvalidParameterException e = assertThrows(InvalidParameterException.class,
                    () -> new BatchCoalescer(null, 0, allocator));
            assertEquals("targetRows", e.parameter());
        }
    }

    private static List<List<Object>> values(List<VectorSchemaRoot> batches) {
        List<List<Object>> rows = new ArrayList<>();
        for (VectorSchemaRoot batch : batches) {
            for (int r = 0; r < batch.getRowCount(); r++) {
                List<Object> row = new ArrayList<>();
                for (FieldVector v : batch.getFieldVectors()) {
                    Object value = v.getObject(r);
                    row.add(value == null ? null : value.toString());
                }
                rows.add(row);
            }
        }
        return rows;
    }
}
