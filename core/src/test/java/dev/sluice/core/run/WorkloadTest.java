package dev.sluice.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.input.BatchGenerator;
import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.input.MapTaskInput;
import dev.sluice.core.input.SchemaSpec;
import dev.sluice.core.partition.Partitioner;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.spi.Bytes;
import dev.sluice.spi.InvalidParameterException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WorkloadTest {
    private static Workload parse(String size, String scale, String tasks, String batches, String batchBytes,
                                  String rows) {
        return Workload.parse("--", size, scale, tasks, "200", batches, batchBytes, rows, "roundrobin", "uniform",
                "lz4-block", "42", SchemaSpec.DEFAULT);
    }

    @ParameterizedTest(name = "{0}: {1} batches")
    @CsvSource({"small, 1", "medium, 2", "large, 3", "xlarge, 4", "xxlarge, 5"})
    void theSeedsBatchesPerTaskAreTheDefault(String size, int batches) {
        Workload w = parse(size, "0.001", "1", "seed", "none", "none");
        assertEquals(batches, w.batchesPerTask());
        assertEquals(batches, w.inputSpec().batches);
    }

    @Test
    void onlyOneBatchShapeAtATime() {
        InvalidParameterException e = assertThrows(InvalidParameterException.class,
                () -> parse("small", "1", "1", "3", "none", "8192"));
        assertTrue(e.getMessage().contains("one batch shape at a time"), e.getMessage());
        assertThrows(InvalidParameterException.class, () -> parse("small", "1", "1", "seed", "400m", "8192"));
        assertThrows(InvalidParameterException.class, () -> parse("small", "1", "0", "seed", "none", "none"));
        assertThrows(InvalidParameterException.class, () -> parse("small", "lots", "1", "seed", "none", "none"));
    }

    @Test
    void theSeedEquivalentScaleKeepsTasksTimesSizeOverMemoryAsTheSeeds() {
        long memory = 24 * Bytes.GiB;
        double scale = SeedScale.of(2, memory);
        assertEquals(16.0 / 125 * 24 / 2, scale, 1e-12);
        // tasks x size x scale / memory here = 16 x size / 125 GiB
        assertEquals(16.0 / (125 * Bytes.GiB), 2 * scale / memory, 1e-24);
        Workload w = parse("small", SeedScale.NAME, "2", "seed", "none", "none");
        assertEquals(SeedScale.of(2, SeedScale.memoryTotal()), w.scale, 1e-12);
        assertTrue(w.scaleReason.contains("125 GiB"), w.scaleReason);
    }

    @ParameterizedTest
    @CsvSource({"1", "2", "5", "7"})
    void aCountOfBatchesGivesExactlyThatMany(int batches) {
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskInput input = BatchGenerator.generate(InputSpec.of(DataSize.TINY, 1).withBatches(batches),
                     allocator)) {
            assertEquals(batches, input.batches().size());
            assertTrue(input.bytes() > 0.95 * DataSize.TINY.bytes() && input.bytes() < 1.05 * DataSize.TINY.bytes(),
                    "bytes " + input.bytes());
        }
    }

    @ParameterizedTest(name = "{0} rows over {1} partitions")
    @CsvSource({"1000, 200", "199, 200", "4096, 7", "1, 3"})
    void roundRobinGivesEveryPartitionTheRowsADealWouldInContiguousRuns(int rows, int partitions) {
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskInput input = BatchGenerator.generate(InputSpec.of(DataSize.TINY, 1).withRowsPerBatch(rows),
                     allocator)) {
            Partitioner block = Partitioning.ROUNDROBIN.create(partitions, 7);
            // Spark's deal: row i goes to (start + 1 + i) % n, the start carried over from batch to batch.
            int position = (int) Long.remainderUnsigned(dev.sluice.core.input.Mix.mix64(7), partitions);
            for (VectorSchemaRoot batch : input.batches().subList(0, Math.min(3, input.batches().size()))) {
                int n = batch.getRowCount();
                int[] assigned = new int[n];
                block.assign(batch, assigned);
                int[] dealt = new int[partitions];
                for (int i = 0; i < n; i++) {
                    position = position + 1 == partitions ? 0 : position + 1;
                    dealt[position]++;
                }
                int[] counted = new int[partitions];
                for (int i = 0; i < n; i++) {
                    counted[assigned[i]]++;
                    assertTrue(i == 0 || assigned[i] >= assigned[i - 1], "contiguous runs in partition order");
                }
                assertEquals(java.util.Arrays.toString(dealt), java.util.Arrays.toString(counted));
            }
        }
    }
}
