package dev.sluice.core.run;

import dev.sluice.core.input.BatchGenerator;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.input.MapTaskInput;
import dev.sluice.core.partition.PartitionedInput;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.serde.ArrowIpcFormat;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.verify.Expected;
import dev.sluice.spi.MapTask;
import dev.sluice.spi.ShuffleRecord;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One map task's input, ready to write: generated from its seed, partitioned into records, and what its output must hold
 * computed, all outside any timing. The generated batches are released once partitioned; the records own their rows.
 */
public final class TaskInput implements AutoCloseable {
    public final int shuffleId;
    public final long mapId;
    public final InputSpec spec;
    public final Schema schema;
    public final PartitionedInput records;
    /** What each partition must hold; null for a {@link #warmUp warm-up copy}, which is not verified. */
    /** What each partition of its map output must hold, computed from the input. */
    public final Expected expected;
    public final String fingerprint;
    public final long rows;
    public final long bytes;
    public final int batches;
    /** The records as payloads of each codec's format, made on first use (outside any timing) and kept. */
    private final Map<ShuffleCodec, List<ShuffleRecord>> byCodec = new EnumMap<>(ShuffleCodec.class);
    private final Map<ShuffleCodec, ArrowIpcFormat> formats = new EnumMap<>(ShuffleCodec.class);

    private TaskInput(int shuffleId, long mapId, InputSpec spec, MapTaskInput input, PartitionedInput records,
                      Expected expected) {
        this(shuffleId, mapId, spec, input.schema(), records, expected, input.fingerprint(), input.rows(),
                input.bytes(), input.batches().size());
    }

    private TaskInput(int shuffleId, long mapId, InputSpec spec, Schema schema, PartitionedInput records,
                      Expected expected, String fingerprint, long rows, long bytes, int batches) {
        this.shuffleId = shuffleId;
        this.mapId = mapId;
        this.spec = spec;
        this.schema = schema;
        this.records = records;
        this.expected = expected;
        this.fingerprint = fingerprint;
        this.rows = rows;
        this.bytes = bytes;
        this.batches = batches;
    }

    /** Generates and partitions the input of map task {@code mapId}, and what its output must hold; reports bytes generated. */
    public static TaskInput prepare(InputSpec spec, Partitioning partitioning, int partitions, int shuffleId,
                                    long mapId, BufferAllocator allocator, LongConsumer progress) {
        Expected.Builder expected = new Expected.Builder(partitioning.create(partitions, mapId));
        try (MapTaskInput input = BatchGenerator.generate(spec, allocator, progress, expected)) {
            PartitionedInput records = PartitionedInput.partition(input, partitioning.create(partitions, mapId),
                    allocator);
            return new TaskInput(shuffleId, mapId, spec, input, records, expected.build());
        }
    }

    /**
     * A warm-up copy of this input: every record cut to its first {@code 1/divisor} of rows, so a wave of it runs the
     * same code over the same partitions and records for a fraction of the time. It has no expected rows (what it writes
     * is not verified) and shares this input's rows; closing it releases only its slices.
     */
    public TaskInput warmUp(int divisor) {
        PartitionedInput cut = records.prefixes(divisor);
        return new TaskInput(shuffleId, mapId, spec, schema, cut, null, "warm-up 1/" + divisor + " of " + fingerprint,
                cut.rows(), cut.bytes(), batches);
    }

    /** The Arrow IPC format of this input's partitions in {@code codec}. */
    public synchronized ArrowIpcFormat format(ShuffleCodec codec) {
        return formats.computeIfAbsent(codec, c -> new ArrowIpcFormat(schema, c));
    }

    /** The records, in order, with payloads in {@code codec}: what a writer of this task is given. */
    public synchronized List<ShuffleRecord> records(ShuffleCodec codec) {
        return byCodec.computeIfAbsent(codec, c -> records.records(format(c)));
    }

    public MapTask task(ShuffleCodec codec) {
        return new MapTask(shuffleId, mapId, format(codec));
    }

    @Override
    public void close() {
        records.close();
    }
}
