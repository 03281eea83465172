package dev.sluice.core.run;

import dev.sluice.spi.MapOutput;

/** One map task written and committed: its output, how long it took, and the most memory its writer held. */
public final class MapTaskResult {
    public final TaskInput input;
    public final MapOutput output;
    public final long nanos;
    public final long peakBufferedBytes;

    MapTaskResult(TaskInput input, MapOutput output, long nanos, long peakBufferedBytes) {
        this.input = input;
        this.output = output;
        this.nanos = nanos;
        this.peakBufferedBytes = peakBufferedBytes;
    }
}
