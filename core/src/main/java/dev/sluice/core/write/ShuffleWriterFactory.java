package dev.sluice.core.write;

import dev.sluice.core.io.CountedStorage;
import org.apache.arrow.memory.BufferAllocator;

/**
 * A writer strategy, found by {@link java.util.ServiceLoader} under a stable {@link #name()}. A third party's jar
 * adds one with a {@code META-INF/services/dev.sluice.core.write.ShuffleWriterFactory} entry.
 */
public interface ShuffleWriterFactory {
    /** Stable name used on the command line and in benchmark parameters, e.g. {@code per-batch}. */
    String name();

    /** One line on the mechanism it models. */
    String description();

    /**
     * Starts an executor for this strategy. All file I/O goes through {@code storage}; all Arrow memory comes from
     * {@code allocator} (the caller owns both).
     */
    ShuffleExecutor createExecutor(WriterConfig config, CountedStorage storage, BufferAllocator allocator);
}
