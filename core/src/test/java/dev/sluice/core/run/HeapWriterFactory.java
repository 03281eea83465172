package dev.sluice.core.run;

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
import dev.sluice.spi.storage.DataFileCommit;
import dev.sluice.spi.storage.MapOutputFiles;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;

/**
 * The least writer a wave can run, so that core tests its run machinery without a strategy: each partition's stream
 * kept on the heap, all of them written to the data file at commit, through Spark's atomic commit. No threads, no
 * memory limit.
 */
final class HeapWriterFactory implements ShuffleWriterFactory {
    @Override
    public String name() {
        return "heap";
    }

    @Override
    public String description() {
        return "every partition on the heap until commit (core's tests)";
    }

    @Override
    public ShuffleExecutor createExecutor(WriterConfig config, OptionValues options, CountedStorage storage,
                                          HostAllocator allocator) {
        return new ShuffleExecutor() {
            @Override
            public ShuffleWriter createMapOutputWriter(MapTask task) {
                return new HeapWriter(config, task, storage, allocator);
            }

            @Override
            public void close() {}
        };
    }

    private static final class HeapWriter implements ShuffleWriter {
        private final WriterConfig config;
        private final MapTask task;
        private final CountedStorage storage;
        private final HostAllocator scratch;
        private final ByteArrayOutputStream[] partitions;
        private boolean done;

        HeapWriter(WriterConfig config, MapTask task, CountedStorage storage, HostAllocator scratch) {
            this.config = config;
            this.task = task;
            this.storage = storage;
            this.scratch = scratch;
            this.partitions = new ByteArrayOutputStream[config.partitions];
        }

        @Override
        public void write(ShuffleRecord record) throws IOException {
            if (done) {
                throw new IllegalStateException("map " + task.mapId + " is already committed or aborted");
            }
            ByteArrayOutputStream partition = partitions[record.partitionId()];
            if (partition == null) {
                partition = partitions[record.partitionId()] = new ByteArrayOutputStream();
                partition.write(task.format.streamHeader());
            }
            record.payload().writeTo(Channels.newChannel(partition), scratch);
        }

        @Override
        public MapOutput commit() throws IOException {
            done = true;
            long[] lengths = new long[partitions.length];
            MapOutputFiles files = new MapOutputFiles(task.directory(config), task.shuffleId, task.mapId);
            try (DataFileCommit commit = DataFileCommit.begin(storage, files)) {
                for (int p = 0; p < partitions.length; p++) {
                    if (partitions[p] != null) {
                        partitions[p].write(task.format.endOfStream());
                        lengths[p] = partitions[p].size();
                        ByteBuffer bytes = ByteBuffer.wrap(partitions[p].toByteArray());
                        while (bytes.hasRemaining()) {
                            commit.data().write(bytes);
                        }
                    }
                }
                return commit.commit(lengths, config.fsync);
            }
        }

        @Override
        public void abort(Throwable cause) {
            done = true;
        }

        @Override
        public long peakBufferedBytes() {
            return 0;
        }

        @Override
        public void close() {
            done = true;
        }
    }
}
