package dev.sluice.core.write.buffered;

import dev.sluice.core.io.CountedStorage;
import dev.sluice.core.write.ShuffleExecutor;
import dev.sluice.core.write.ShuffleWriterFactory;
import dev.sluice.core.write.WriterConfig;
import dev.sluice.core.write.consolidate.ConsolidatingExecutor;
import org.apache.arrow.memory.BufferAllocator;

/** {@code buffered}: spark-rapids PR-13724, consolidation in memory with a merge at commit. */
public final class BufferedWriterFactory implements ShuffleWriterFactory {
    public static final String NAME = "buffered";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "records compressed by a writer pool into per-batch partial buffers (doubling, spilled under memory "
                + "pressure), merged into the data file at commit (spark-rapids PR-13724)";
    }

    @Override
    public ShuffleExecutor createExecutor(WriterConfig config, CountedStorage storage, BufferAllocator allocator) {
        return new ConsolidatingExecutor(NAME, config, storage, allocator, BufferedWriter::new);
    }
}
