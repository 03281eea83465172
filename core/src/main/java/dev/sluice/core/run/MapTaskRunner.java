package dev.sluice.core.run;

import dev.sluice.spi.MapOutput;
import dev.sluice.spi.ShuffleRecord;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.ShuffleWriter;

/**
 * One map task, the way every caller runs it (the command line, the benchmarks, the tests): a fresh writer from the
 * executor, every record, commit; timed from the writer's creation to the commit's return.
 */
public final class MapTaskRunner {
    private MapTaskRunner() {}

    public static MapTaskResult run(ShuffleExecutor executor, TaskInput input, ShuffleCodec codec) throws Exception {
        var records = input.records(codec);
        long start = System.nanoTime();
        MapOutput output;
        long peak;
        try (ShuffleWriter writer = executor.createMapOutputWriter(input.task(codec))) {
            for (ShuffleRecord record : records) {
                writer.write(record);
            }
            output = writer.commit();
            peak = writer.peakBufferedBytes();
        }
        return new MapTaskResult(input, output, System.nanoTime() - start, peak);
    }
}
