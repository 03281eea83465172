package dev.sluice.spi;

/**
 * What one strategy shares between the map tasks of an executor: its thread pools, memory, storage. A benchmark or
 * the command line makes one, runs map tasks through it (concurrently if it likes), then closes it, which stops every
 * thread it started. Writers must be committed or closed before their executor.
 */
@WriterImplements
public interface ShuffleExecutor extends AutoCloseable {
    ShuffleWriter createMapOutputWriter(MapTask task);

    /** Stops the executor's threads, waiting a bounded time; throws if one did not stop. */
    @Override
    void close();
}
