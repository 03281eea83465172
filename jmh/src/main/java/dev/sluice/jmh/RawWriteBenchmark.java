package dev.sluice.jmh;

import dev.sluice.core.input.MapTaskInput;
import dev.sluice.core.io.CountedStorage;
import dev.sluice.core.io.WritableFile;
import dev.sluice.core.partition.PartitionedInput;
import dev.sluice.core.partition.ShuffleRecord;
import dev.sluice.core.serde.RecordSerializer;
import dev.sluice.core.serde.ShuffleCodec;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The physical limit, measured in the same run: a sequential write, in 4 MiB calls, of as many bytes as a map task's
 * data file holds for the same input and codec, to the same directory, with the same fsync choice. A strategy's time
 * divided by this one's says how close it gets to what the disk does.
 */
public class RawWriteBenchmark extends BenchmarkInput {
    static final int WRITE_SIZE = 4 << 20;

    @Param({"lz4-frame"})
    public String codec;

    @Param({"false"})
    public boolean sync;

    private CountedStorage storage;
    private Path dir;
    private Path file;
    private ByteBuffer chunk;
    private long bytes;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        bytes = dataFileBytes();
        System.out.printf("sluice raw write: %d bytes in %d-byte writes%n", bytes, WRITE_SIZE);
        dir = newTrialDirectory("sluice-raw-");
        chunk = ByteBuffer.allocateDirect(WRITE_SIZE);
        SplittableRandom random = new SplittableRandom(seed);
        while (chunk.remaining() >= Long.BYTES) {
            chunk.putLong(random.nextLong());
        }
        storage = new CountedStorage();
        IoMetrics.register(storage);
    }

    /** Bytes of the data file a strategy writes for this input and codec: every partition's stream. */
    private long dataFileBytes() throws IOException {
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskInput input = generate(allocator);
             PartitionedInput records = PartitionedInput.partition(input, partitioningScheme().create(partitions, 0),
                     allocator)) {
            RecordSerializer serializer = new RecordSerializer(input.schema(), ShuffleCodec.parse("codec", codec), allocator);
            Counting counting = new Counting();
            boolean[] started = new boolean[partitions];
            for (ShuffleRecord record : records.records()) {
                started[record.partitionId()] = true;
                serializer.writeRecord(record.slice(), counting);
            }
            long total = counting.bytes;
            for (boolean s : started) {
                total += s ? serializer.streamHeader().length + serializer.endOfStream().length : 0;
            }
            return total;
        }
    }

    @Benchmark
    public long writeSequentially() throws IOException {
        file = dir.resolve("raw-" + System.nanoTime());
        long written = 0;
        try (WritableFile out = storage.create(file)) {
            while (written < bytes) {
                chunk.clear();
                chunk.limit((int) Math.min(WRITE_SIZE, bytes - written));
                written += out.write(chunk);
            }
            if (sync) {
                out.force();
            }
        }
        storage.markCommitted(file, written);
        IoMetrics.mapTaskDone(WRITE_SIZE);
        return written;
    }

    @Override
    protected void removeIterationOutput() throws IOException {
        if (file != null) {
            storage.delete(file);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        IoMetrics.register(null);
        deleteTrialDirectory(dir);
    }

    private static final class Counting implements WritableByteChannel {
        long bytes;

        @Override
        public int write(ByteBuffer src) {
            int n = src.remaining();
            src.position(src.limit());
            bytes += n;
            return n;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {}
    }
}
