package dev.sluice.spi;

import java.io.IOException;

/**
 * Writes one map task's shuffle output, with the semantics of Spark's {@code ShuffleMapOutputWriter}: the output holds
 * partitions in increasing order, one atomic {@link #commit} makes it visible and returns each partition's length, and
 * {@link #abort} leaves nothing behind. Called by one thread (the map task's).
 *
 * <p>Records arrive batch by batch, each batch's records in increasing partition order. A record's slice belongs to
 * the caller and must stay valid and unchanged until {@code commit} or {@code abort} returns; the writer never closes
 * it.
 */
@WriterImplements
public interface ShuffleWriter extends AutoCloseable {
    /** Accepts a record; may block for in-flight quota. Throws the first failure of the writer's background work. */
    void write(ShuffleRecord record) throws IOException, InterruptedException;

    /** Completes every partition and publishes the output atomically. On failure, aborts and throws the cause. */
    MapOutput commit() throws IOException, InterruptedException;

    /** Stops the writer and removes everything it created. Idempotent; waits (bounded) for its background work. */
    void abort(Throwable cause);

    /** Peak bytes this writer held in memory beyond its input (buffers, compressed records, partials). */
    long peakBufferedBytes();

    /**
     * Bytes this writer wrote to files holding what did not stay in memory (its spills: a partial that went to file,
     * from its start or later), so far: what Spark's task metrics report as spilled. 0 for a writer that never spills.
     */
    default long spilledBytes() {
        return 0;
    }

    /** Aborts unless committed; releases all memory. */
    @Override
    void close();
}
