package dev.sluice.bench.teststrategy;

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
import java.nio.file.Files;

/**
 * {@code it-failing}: a strategy whose every map task fails at commit, leaving a file of its own in the trial's
 * directory as a careless writer would; for the test that a failed trial's directory is removed anyway. Packed into
 * a jar of its own by ScriptsIT, like {@link RenamedPerBatchFactory}.
 */
public class FailingFactory implements ShuffleWriterFactory {
    static final String MESSAGE = "it-failing fails every commit (a test strategy)";

    @Override
    public String name() {
        return "it-failing";
    }

    @Override
    public String description() {
        return "fails every map task at commit, leaving a file behind (a test strategy)";
    }

    @Override
    public ShuffleExecutor createExecutor(WriterConfig config, OptionValues options, CountedStorage storage,
                                          HostAllocator allocator) {
        return new ShuffleExecutor() {
            @Override
            public ShuffleWriter createMapOutputWriter(MapTask task) {
                return new ShuffleWriter() {
                    @Override
                    public void write(ShuffleRecord record) {}

                    @Override
                    public MapOutput commit() throws IOException {
                        Files.writeString(config.outputDir.resolve("left-by-it-failing-" + task.mapId), "x");
                        throw new IOException(MESSAGE);
                    }

                    @Override
                    public void abort(Throwable cause) {}

                    @Override
                    public long peakBufferedBytes() {
                        return 0;
                    }

                    @Override
                    public void close() {}
                };
            }

            @Override
            public void close() {}
        };
    }
}
