package dev.sluice.testkit.sample;

import dev.sluice.spi.MapOutput;
import dev.sluice.spi.MapTask;
import dev.sluice.spi.MemoryPlan;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.ShuffleRecord;
import dev.sluice.spi.ShuffleWriter;
import dev.sluice.spi.ShuffleWriterFactory;
import dev.sluice.spi.StreamFormat;
import dev.sluice.spi.TaskShape;
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
 * {@code sample-in-memory}, the smallest strategy that holds to Sluice's contract (docs/writing-a-strategy.md): each
 * partition's records collect on the heap, and the commit writes the data file once, in partition order. One class
 * with its writer, registered in {@code META-INF/services/dev.sluice.spi.ShuffleWriterFactory}.
 */
public final class InMemoryWriterFactory implements ShuffleWriterFactory {
    @Override
    public String name() {
        return "sample-in-memory";
    }

    @Override
    public String description() {
        return "each partition's records on the heap, the data file written once at commit (a sample strategy)";
    }

    /** Every task holds all of its serialized records until it commits. */
    @Override
    public void planMemory(MemoryPlan plan, WriterConfig config, OptionValues options, TaskShape shape) {
        plan.heap("sample-in-memory partitions", shape.tasks * shape.serializedBytes());
    }

    @Override
    public ShuffleExecutor createExecutor(WriterConfig config, OptionValues options, CountedStorage storage,
                                          HostAllocator allocator) {
        return new ShuffleExecutor() {
            @Override
            public ShuffleWriter createMapOutputWriter(MapTask task) {
                MapOutputFiles files = new MapOutputFiles(task.directory(config), task.shuffleId, task.mapId);
                return new Writer(config, storage, allocator, files, task.format);
            }

            @Override
            public void close() {
                // No thread or memory is shared between the writers.
            }
        };
    }

    /** One map task: records on the task's thread into heap buffers; no file exists before the commit. */
    private static final class Writer implements ShuffleWriter {
        private final WriterConfig config;
        private final CountedStorage storage;
        private final HostAllocator scratch;
        private final MapOutputFiles files;
        private final StreamFormat format;
        private ByteArrayOutputStream[] partitions;
        private long buffered;

        Writer(WriterConfig config, CountedStorage storage, HostAllocator scratch, MapOutputFiles files,
               StreamFormat format) {
            this.config = config;
            this.storage = storage;
            this.scratch = scratch;
            this.files = files;
            this.format = format;
            this.partitions = new ByteArrayOutputStream[config.partitions];
        }

        @Override
        public void write(ShuffleRecord record) throws IOException, InterruptedException {
            // Spark kills a task by interrupting its thread: a writer that does its work on that thread checks here.
            if (Thread.interrupted()) {
                throw new InterruptedException("map " + files.mapId() + " interrupted while writing");
            }
            ByteArrayOutputStream partition = partition(record.partitionId());
            int before = partition.size();
            record.payload().writeTo(Channels.newChannel(partition), scratch);
            buffered += partition.size() - before;
        }

        private ByteArrayOutputStream partition(int id) {
            if (partitions == null) {
                throw new IllegalStateException("the writer of map " + files.mapId() + " is committed or aborted");
            }
            if (partitions[id] == null) {
                partitions[id] = new ByteArrayOutputStream();
            }
            return partitions[id];
        }

        /** A partition's bytes: the stream header, its records in input order, the end marker; empty ones none. */
        @Override
        public MapOutput commit() throws IOException {
            ByteArrayOutputStream[] written = partitions;
            if (written == null) {
                throw new IllegalStateException("the writer of map " + files.mapId() + " is committed or aborted");
            }
            long[] lengths = new long[config.partitions];
            try (DataFileCommit commit = DataFileCommit.begin(storage, files)) {
                for (int p = 0; p < lengths.length; p++) {
                    ByteArrayOutputStream partition = written[p];
                    if (partition == null || partition.size() == 0) {
                        continue;
                    }
                    lengths[p] += commit.data().write(ByteBuffer.wrap(format.streamHeader()));
                    lengths[p] += commit.data().write(ByteBuffer.wrap(partition.toByteArray()));
                    lengths[p] += commit.data().write(ByteBuffer.wrap(format.endOfStream()));
                }
                return commit.commit(lengths, config.fsync);
            } finally {
                partitions = null;
            }
        }

        @Override
        public void abort(Throwable cause) {
            partitions = null;
        }

        @Override
        public long peakBufferedBytes() {
            return buffered;
        }

        @Override
        public void close() {
            partitions = null;
        }
    }
}
