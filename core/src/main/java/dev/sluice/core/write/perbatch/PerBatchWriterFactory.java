package dev.sluice.core.write.perbatch;

import dev.sluice.core.io.CountedStorage;
import dev.sluice.core.write.ShuffleExecutor;
import dev.sluice.core.write.ShuffleWriterFactory;
import dev.sluice.core.write.WriterConfig;
import org.apache.arrow.memory.BufferAllocator;

/** {@code per-batch}: the baseline of the seed report (spark-rapids' multithreaded writer before PR-13724). */
public final class PerBatchWriterFactory implements ShuffleWriterFactory {
    public static final String NAME = "per-batch";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "one temp file per partition, written by pinned writer threads through 32 KiB buffers, "
                + "concatenated into the data file at commit (spark-rapids before PR-13724)";
    }

    @Override
    public ShuffleExecutor createExecutor(WriterConfig config, CountedStorage storage, BufferAllocator allocator) {
        return new PerBatchExecutor(config, storage, allocator);
    }
}
