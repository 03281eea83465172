package dev.sluice.spark;

import dev.sluice.core.strategy.ShuffleWriters;
import dev.sluice.spi.MapOutput;
import dev.sluice.spi.MapTask;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.ShuffleRecord;
import dev.sluice.spi.ShuffleWriter;
import dev.sluice.spi.ShuffleWriterFactory;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.memory.HostAllocator;
import dev.sluice.spi.option.OptionValues;
import dev.sluice.spi.storage.CountedStorage;
import java.io.IOException;

/**
 * per-batch, except that every map task fails at commit, after its records were written to per-partition files: a
 * strategy failing halfway, for the test that a failed task leaves nothing in Spark's or Sluice's directories.
 */
public final class FailingWriterFactory implements ShuffleWriterFactory {
    static final String MESSAGE = "injected failure at commit";

    @Override
    public String name() {
        return "test-failing-at-commit";
    }

    @Override
    public String description() {
        return "per-batch whose every map task fails at commit (tests only)";
    }

    @Override
    public ShuffleExecutor createExecutor(WriterConfig config, OptionValues options, CountedStorage storage,
                                          HostAllocator allocator) {
        ShuffleWriterFactory perBatch = ShuffleWriters.find("strategy", "per-batch");
        ShuffleExecutor inner = perBatch.createExecutor(config, perBatch.options().defaults(), storage, allocator);
        return new ShuffleExecutor() {
            @Override
            public ShuffleWriter createMapOutputWriter(MapTask task) {
                ShuffleWriter writer = inner.createMapOutputWriter(task);
                return new ShuffleWriter() {
                    @Override
                    public void write(ShuffleRecord record) throws IOException, InterruptedException {
                        writer.write(record);
                    }

                    @Override
                    public MapOutput commit() throws IOException {
                        IOException failure = new IOException(MESSAGE);
                        writer.abort(failure);
                        throw failure;
                    }

                    @Override
                    public void abort(Throwable cause) {
                        writer.abort(cause);
                    }

                    @Override
                    public long peakBufferedBytes() {
                        return writer.peakBufferedBytes();
                    }

                    @Override
                    public void close() {
                        writer.close();
                    }
                };
            }

            @Override
            public void close() {
                inner.close();
            }
        };
    }
}
