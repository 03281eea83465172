package dev.sluice.core.write;

import dev.sluice.core.write.async.AsyncWriterFactory;
import dev.sluice.core.write.buffered.BufferedWriterFactory;
import dev.sluice.core.write.perbatch.PerBatchWriterFactory;
import java.util.stream.Stream;

public final class Strategies {
    private Strategies() {}

    public static Stream<ShuffleWriterFactory> all() {
        return Stream.of(new PerBatchWriterFactory(), new BufferedWriterFactory(), new AsyncWriterFactory());
    }

    public static Stream<ShuffleWriterFactory> consolidating() {
        return Stream.of(new BufferedWriterFactory(), new AsyncWriterFactory());
    }
}
