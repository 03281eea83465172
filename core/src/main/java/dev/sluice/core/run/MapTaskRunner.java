package dev.sluice.core.run;

import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.spi.InputBatch;
import dev.sluice.spi.MapOutput;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.ShuffleRecord;
import dev.sluice.spi.ShuffleWriter;

/**
 * One map task, the way every caller runs it (the command line, the benchmarks, the tests): a fresh writer from the
 * executor, every record, commit; timed from the writer's creation to the commit's return. With a {@link Producer},
 * each input batch takes its time on the task's thread before its first record is written.
 */
public final class MapTaskRunner {
    private MapTaskRunner() {}

    public static MapTaskResult run(ShuffleExecutor executor, TaskInput input, ShuffleCodec codec) throws Exception {
        return run(executor, input, codec, Producer.NONE);
    }

    public static MapTaskResult run(ShuffleExecutor executor, TaskInput input, ShuffleCodec codec, Producer producer)
            throws Exception {
        return run(executor, input, codec, producer, () -> { });
    }

    /**
     * The same, calling {@code beforeCommit} on the task's thread once every record is given to the writer and before
     * its commit starts: where a {@link Wave} reads how much its tasks had written when the first of them committed.
     */
    static MapTaskResult run(ShuffleExecutor executor, TaskInput input, ShuffleCodec codec, Producer producer,
                             Runnable beforeCommit) throws Exception {
        var records = input.records(codec);
        long start = System.nanoTime();
        MapOutput output;
        long peak;
        try (ShuffleWriter writer = executor.createMapOutputWriter(input.task(codec))) {
            InputBatch batch = null;
            for (ShuffleRecord record : records) {
                if (!producer.isNone() && record.inputBatch() != batch) {
                    batch = record.inputBatch();
                    producer.produce(batch.hostBytes());
                    if (Thread.currentThread().isInterrupted()) {
                        throw new InterruptedException("map task " + input.mapId + " interrupted while producing");
                    }
                }
                writer.write(record);
            }
            beforeCommit.run();
            output = writer.commit();
            peak = writer.peakBufferedBytes();
        }
        return new MapTaskResult(input, output, System.nanoTime() - start, peak);
    }
}
