package dev.sluice.gpu;

import dev.sluice.spi.MapOutput;
import dev.sluice.spi.MapTask;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.ShuffleRecord;
import dev.sluice.spi.ShuffleWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * A GPU map task's shuffle write, batch by batch as spark-rapids runs it: the batch is partitioned and copied to the
 * host, each non-empty partition's slice goes to the strategy as a record of the task's {@link GpuFormat} (kudo or
 * JCudfSerialization), and after the last
 * batch the map output is committed. The host copies stay until the writer is closed, since a strategy may serialize
 * records on its own threads until then. Timed from the writer's creation to the commit's return, as the CPU path is
 * ({@code MapTaskRunner}).
 */
public final class GpuMapTask {
    private GpuMapTask() {}

    /** Makes batch {@code b}'s partitions on the host: on the device, or emulated on the host. */
    @FunctionalInterface
    public interface Batches {
        HostPartitions partition(int batch) throws Exception;
    }

    /** Writes {@code batches} batches from {@code source} as map task {@code task}, whose format is a GPU one. */
    public static Result run(ShuffleExecutor executor, MapTask task, int batches, Batches source) throws Exception {
        if (!(task.format instanceof GpuFormat)) {
            throw new IllegalArgumentException("a GPU map task writes kudo or JCudfSerialization records (a "
                    + "GpuFormat), not " + task.format.getClass().getSimpleName() + "'s");
        }
        GpuFormat format = (GpuFormat) task.format;
        List<HostPartitions> held = new ArrayList<>();
        long records = 0;
        long rows = 0;
        long serializedBytes = 0;
        MapOutput output;
        long start = System.nanoTime();
        try {
            try (ShuffleWriter writer = executor.createMapOutputWriter(task)) {
                for (int b = 0; b < batches; b++) {
                    HostPartitions partitions = source.partition(b);
                    held.add(partitions);
                    for (ShuffleRecord record : partitions.records(format)) {
                        writer.write(record);
                        records++;
                        rows += record.rows();
                        serializedBytes += record.bytes();
                    }
                }
                output = writer.commit();
            }
        } finally {
            CudfColumns.closeAll(held.toArray(new AutoCloseable[0]));
        }
        return new Result(output, System.nanoTime() - start, records, rows, serializedBytes);
    }

    /** One GPU map task written and committed. */
    public static final class Result {
        public final MapOutput output;
        public final long nanos;
        public final long records;
        public final long rows;
        /** The format's serialized bytes before compression, summed over records. */
        public final long serializedBytes;

        Result(MapOutput output, long nanos, long records, long rows, long serializedBytes) {
            this.output = output;
            this.nanos = nanos;
            this.records = records;
            this.rows = rows;
            this.serializedBytes = serializedBytes;
        }
    }
}
