package dev.sluice.network;

import dev.sluice.core.input.BatchGenerator;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.input.MapTaskInput;
import dev.sluice.core.partition.PartitionedInput;
import dev.sluice.core.partition.Partitioner;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.verify.Expected;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One map task's input for a mode of the experiment, made outside any measurement: the seeded rows, generated in
 * batches of {@code inputRows}, hash-partitioned as Spark does into slices; for {@link BoundaryMode#NATIVE} the same
 * rows are first copied into batches of the mode's size, so that every mode sends the same rows in the same order
 * and one {@link Expected} judges them all. Owns its slices.
 */
public final class BoundaryInput implements AutoCloseable {
    public final Schema schema;
    public final PartitionedInput slices;
    public final Expected expected;
    public final String fingerprint;
    public final long rows;
    public final long bytes;
    /** Input batches that were partitioned, and their rows (the last may be shorter). */
    public final int batches;
    public final int batchRows;

    private BoundaryInput(Schema schema, PartitionedInput slices, Expected expected, String fingerprint, long rows,
                          long bytes, int batches, int batchRows) {
        this.schema = schema;
        this.slices = slices;
        this.expected = expected;
        this.fingerprint = fingerprint;
        this.rows = rows;
        this.bytes = bytes;
        this.batches = batches;
        this.batchRows = batchRows;
    }

    /**
     * {@code workload}'s rows, as many as {@code spec}'s size and scale hold (for lineitem, that many bytes of its
     * rows; seeded by {@code spec}'s seed), in batches of {@code shape.inputRows}, prepared for {@code mode}.
     */
    public static BoundaryInput prepare(BoundaryWorkload workload, InputSpec spec, BoundaryShape shape,
                                        BoundaryMode mode, BufferAllocator allocator) {
        if (workload == BoundaryWorkload.TODAY) {
            return prepare(spec, shape, mode, allocator);
        }
        Partitioner partitioner = LineitemRows.partitioner(shape.partitions);
        Expected.Builder expected = new Expected.Builder(LineitemRows.partitioner(shape.partitions));
        long rows = Math.max(1, Math.round(spec.size.bytes() * spec.scale / LineitemRows.MEAN_BYTES_PER_ROW));
        LineitemRows.Generated input = LineitemRows.generate(rows, shape.inputRows, spec.seed, expected, allocator);
        try {
            int batchRows = mode.inputBatchRows(shape);
            List<VectorSchemaRoot> batches = batchRows == shape.inputRows ? input.batches
                    : rebatch(LineitemRows.SCHEMA, input.batches, batchRows, allocator);
            try {
                PartitionedInput slices = PartitionedInput.partition(batches, partitioner, allocator);
                return new BoundaryInput(LineitemRows.SCHEMA, slices, expected.build(), input.fingerprint, input.rows,
                        input.bytes, batches.size(), batchRows);
            } finally {
                if (batches != input.batches) {
                    AutoCloseables.closeNoChecked(() -> AutoCloseables.close(batches));
                }
            }
        } finally {
            AutoCloseables.closeNoChecked(() -> AutoCloseables.close(input.batches));
        }
    }

    /** Generates {@code spec}'s rows in batches of {@code shape.inputRows} and prepares them for {@code mode}. */
    public static BoundaryInput prepare(InputSpec spec, BoundaryShape shape, BoundaryMode mode,
                                        BufferAllocator allocator) {
        Expected.Builder expected = new Expected.Builder(Partitioning.HASH.create(shape.partitions, 0));
        try (MapTaskInput input = BatchGenerator.generate(spec.withRowsPerBatch(shape.inputRows), allocator,
                bytes -> { }, expected)) {
            int batchRows = mode.inputBatchRows(shape);
            List<VectorSchemaRoot> batches = batchRows == shape.inputRows ? input.batches()
                    : rebatch(input.schema(), input.batches(), batchRows, allocator);
            try {
                PartitionedInput slices = PartitionedInput.partition(batches,
                        Partitioning.HASH.create(shape.partitions, 0), allocator);
                return new BoundaryInput(input.schema(), slices, expected.build(), input.fingerprint(), input.rows(),
                        input.bytes(), batches.size(), batchRows);
            } finally {
                if (batches != input.batches()) {
                    AutoCloseables.closeNoChecked(() -> AutoCloseables.close(batches));
                }
            }
        }
    }

    /** The input's rows, in order, in batches of {@code rows}. */
    private static List<VectorSchemaRoot> rebatch(Schema schema, List<VectorSchemaRoot> input, int rows,
                                                  BufferAllocator allocator) {
        List<VectorSchemaRoot> out = new ArrayList<>();
        try (BatchCoalescer coalescer = new BatchCoalescer(schema, rows, allocator)) {
            for (VectorSchemaRoot batch : input) {
                coalescer.append(batch, out::add);
            }
            coalescer.finish(out::add);
            return out;
        } catch (RuntimeException | Error e) {
            AutoCloseables.closeNoChecked(() -> AutoCloseables.close(out));
            throw e;
        }
    }

    @Override
    public void close() {
        slices.close();
    }
}
