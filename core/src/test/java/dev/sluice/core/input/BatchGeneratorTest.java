package dev.sluice.core.input;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.verify.Expected;
import dev.sluice.spi.InvalidParameterException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.junit.jupiter.api.Test;

class BatchGeneratorTest {
    @Test
    void sameSpecSameBytesAndFingerprint() {
        InputSpec spec = InputSpec.of(DataSize.TINY, 0.5).withRowsPerBatch(5000);
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskInput a = BatchGenerator.generate(spec, allocator);
             MapTaskInput b = BatchGenerator.generate(spec, allocator);
             MapTaskInput other = BatchGenerator.generate(spec.withSeed(43), allocator)) {
            assertEquals(a.fingerprint(), b.fingerprint());
            assertEquals(a.rows(), b.rows());
            assertEquals(a.batches().size(), b.batches().size());
            for (int i = 0; i < a.batches().size(); i++) {
                VectorSchemaRoot x = a.batches().get(i);
                VectorSchemaRoot y = b.batches().get(i);
                assertTrue(x.equals(y), "batch " + i + " differs");
            }
            assertNotEquals(a.fingerprint(), other.fingerprint());
        }
    }

    @Test
    void inputLandsOnTheTargetSizeInFullBatches() {
        InputSpec spec = InputSpec.of(DataSize.TINY, 1).withRowsPerBatch(10_000);
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskInput input = BatchGenerator.generate(spec, allocator)) {
            assertTrue(input.bytes() >= spec.targetBytes(), input.bytes() + " < " + spec.targetBytes());
            assertTrue(input.bytes() < spec.targetBytes() * 1.01, input.bytes() + " is over 1% above " + spec.targetBytes());
            for (int i = 0; i < input.batches().size() - 1; i++) {
                assertEquals(10_000, input.batches().get(i).getRowCount());
            }
            assertEquals("key", input.schema().getFields().get(0).getName());
            assertEquals(new ArrowType.Int(64, true), input.schema().getFields().get(0).getType());
        }
    }

    @Test
    void zipfKeysLeaveSomeOf200PartitionsEmpty() {
        InputSpec spec = InputSpec.of(DataSize.TINY, 0.5).withKeys(KeyDistribution.ZIPF);
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskInput input = BatchGenerator.generate(spec, allocator)) {
            Expected hashed = Expected.compute(input, Partitioning.HASH.create(200, 0));
            assertTrue(hashed.nonEmptyPartitions() < 200, "all 200 partitions got rows");
            assertTrue(hashed.nonEmptyPartitions() > 10);
            assertEquals(input.rows(), hashed.totalRows());
        }
    }

    @Test
    void columnsAreConfigurable() {
        SchemaSpec spec = SchemaSpec.parse("columns", "utf8?,float64");
        assertEquals(3, spec.columns().size());
        assertTrue(spec.columns().get(1).nullable);
        InvalidParameterException e = assertThrows(InvalidParameterException.class,
                () -> SchemaSpec.parse("columns", "int32,decimal"));
        assertEquals("columns", e.parameter());
        assertTrue(e.getMessage().contains("decimal"), e.getMessage());
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskInput input = BatchGenerator.generate(new InputSpec(DataSize.TINY, 0.1, 1000,
                     KeyDistribution.UNIFORM, 1, spec), allocator)) {
            assertEquals(3, input.schema().getFields().size());
            assertTrue(input.batches().get(0).getVector(1).getNullCount() > 0);
        }
    }

    @Test
    void invalidSpecsAreRefusedByName() {
        assertEquals("scale", assertThrows(InvalidParameterException.class, () -> InputSpec.of(DataSize.TINY, 0)).parameter());
        assertEquals("scale", assertThrows(InvalidParameterException.class, () -> InputSpec.of(DataSize.TINY, -1)).parameter());
        assertEquals("rows-per-batch", assertThrows(InvalidParameterException.class,
                () -> InputSpec.of(DataSize.TINY, 1).withRowsPerBatch(0)).parameter());
        assertEquals("size", assertThrows(InvalidParameterException.class, () -> DataSize.parse("size", "huge")).parameter());
    }
}
