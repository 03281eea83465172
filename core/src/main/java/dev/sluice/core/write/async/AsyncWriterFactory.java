package dev.sluice.core.write.async;

import dev.sluice.core.io.CountedStorage;
import dev.sluice.core.write.ShuffleExecutor;
import dev.sluice.core.write.ShuffleWriterFactory;
import dev.sluice.core.write.WriterConfig;
import dev.sluice.core.write.consolidate.ConsolidatingExecutor;
import org.apache.arrow.memory.BufferAllocator;

/** {@code async}: spark-rapids PR-14090, predictive partial sizing and a commit that skips the merge. */
public final class AsyncWriterFactory implements ShuffleWriterFactory {
    public static final String NAME = "async";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "buffered's pipeline with predictive partial sizing; commit registers segments in a catalog and "
                + "writes nothing unless memory pressure spilled (spark-rapids PR-14090)";
    }

    @Override
    public ShuffleExecutor createExecutor(WriterConfig config, CountedStorage storage, BufferAllocator allocator) {
        return new ConsolidatingExecutor(NAME, config, storage, allocator, AsyncWriter::new);
    }
}
