package dev.sluice.core.run;

import dev.sluice.core.input.BatchGenerator;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.input.MapTaskInput;
import dev.sluice.core.partition.PartitionedInput;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.verify.Reference;
import dev.sluice.core.write.MapTask;
import java.util.function.LongConsumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One map task's input, ready to write: generated from its seed, partitioned into records, and its reference
 * computed, all outside any timing. The generated batches are released once partitioned; the records own their rows.
 */
public final class TaskInput implements AutoCloseable {
    public final int shuffleId;
    public final long mapId;
    public final InputSpec spec;
    public final Schema schema;
    public final PartitionedInput records;
    public final Reference reference;
    public final String fingerprint;
    public final long rows;
    public final long bytes;
    public final int batches;

    private TaskInput(int shuffleId, long mapId, InputSpec spec, MapTaskInput input, PartitionedInput records,
                      Reference reference) {
        this.shuffleId = shuffleId;
        this.mapId = mapId;
        this.spec = spec;
        this.schema = input.schema();
        this.records = records;
        this.reference = reference;
        this.fingerprint = input.fingerprint();
        this.rows = input.rows();
        this.bytes = input.bytes();
        this.batches = input.batches().size();
    }

    /** Generates, partitions and references the input of map task {@code mapId}; reports bytes generated. */
    public static TaskInput prepare(InputSpec spec, Partitioning partitioning, int partitions, int shuffleId,
                                    long mapId, BufferAllocator allocator, LongConsumer progress) {
        Reference.Builder reference = new Reference.Builder(partitioning.create(partitions, mapId));
        try (MapTaskInput input = BatchGenerator.generate(spec, allocator, progress, reference)) {
            PartitionedInput records = PartitionedInput.partition(input, partitioning.create(partitions, mapId),
                    allocator);
            return new TaskInput(shuffleId, mapId, spec, input, records, reference.build());
        }
    }

    public MapTask task() {
        return new MapTask(shuffleId, mapId, schema);
    }

    @Override
    public void close() {
        records.close();
    }
}
