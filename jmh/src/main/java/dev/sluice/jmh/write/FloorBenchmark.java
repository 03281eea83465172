package dev.sluice.jmh.write;

import dev.sluice.core.memory.ArrowHostAllocator;
import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.core.run.TaskInput;
import dev.sluice.core.run.Workload;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.jmh.RunSettings;
import dev.sluice.jmh.state.InputState;
import dev.sluice.spi.BufferChannel;
import dev.sluice.spi.InvalidParameterException;
import dev.sluice.spi.OwnedThreads;
import dev.sluice.spi.ShuffleRecord;
import dev.sluice.spi.memory.HostAllocator;
import dev.sluice.spi.memory.HostBuffer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The floors under a wave, measured in the same run as its strategies: the CPU work every strategy must do for the
 * wave's records (every task's), on every core, into memory reused from wave to wave, without a byte of I/O.
 * <ul>
 *   <li>{@code serialize}: each record serialized as Arrow IPC, uncompressed, the serialization floor;</li>
 *   <li>{@code compress}: the same serialized records, made before the trial, framed and compressed by the run's
 *   codec, a piece per record as every strategy's records are: the compression floor. {@code lz4-frame} compresses
 *   Arrow's buffers inside the record rather than the serialized record, so it has no compression floor of its own
 *   here and is refused.</li>
 * </ul>
 * With {@link RawWriteBenchmark}'s raw write, these bound a wave from below: a strategy must serialize, compress and
 * write; {@code ideal} does only that, overlapped, so its wave should come near the slower of serialize plus compress
 * on every core and the raw write.
 */
public class FloorBenchmark extends RunSettings {
    /** The wave's records and what the floors reuse: threads, one target buffer per thread. */
    @State(Scope.Benchmark)
    public static class WaveRecords {
        private final List<ShuffleRecord> records = new ArrayList<>();
        private final List<ByteBuffer> serialized = new ArrayList<>();
        private ShuffleCodec codec;
        private HostAllocator scratch;
        /** Where the serialized records and the targets live, closed at the trial's end. */
        private HostAllocator memory;
        private final List<HostBuffer> owned = new ArrayList<>();
        private int cores;
        private ExecutorService threads;
        private ByteBuffer[] serializeTargets;
        private ByteBuffer[] compressTargets;
        private long serializedBytes;

        @Setup(Level.Trial)
        public void prepare(InputState inputs) throws Exception {
            Workload workload = inputs.workload();
            codec = workload.codec;
            if (codec == ShuffleCodec.LZ4_FRAME) {
                throw new InvalidParameterException(BenchmarkParam.CODEC.key(), codec.label(), "none, lz4-block or zstd for the floors: "
                        + "lz4-frame compresses Arrow's buffers inside each record, not the serialized record");
            }
            inputs.prepare();
            for (TaskInput task : inputs.input().tasks()) {
                records.addAll(task.records(ShuffleCodec.NONE));
            }
            scratch = ArrowHostAllocator.of(inputs.allocator()).child("floor scratch");
            memory = ArrowHostAllocator.of(inputs.allocator()).child("floor records");
            long largestBound = 0;
            long largest = 0;
            for (ShuffleRecord record : records) {
                largestBound = Math.max(largestBound, record.payload().serializedBound());
                int bound = Math.toIntExact(record.payload().serializedBound());
                ByteBuffer bytes = own(bound);
                record.payload().writeInto(bytes, scratch);
                bytes.flip();
                serialized.add(bytes);
                serializedBytes += bytes.remaining();
                largest = Math.max(largest, bytes.remaining());
            }
            cores = Runtime.getRuntime().availableProcessors();
            threads = Executors.newFixedThreadPool(cores, new OwnedThreads("sluice-floor"));
            serializeTargets = new ByteBuffer[cores];
            compressTargets = new ByteBuffer[cores];
            for (int t = 0; t < cores; t++) {
                int serializeBound = Math.toIntExact(largestBound);
                int compressBound = Math.toIntExact(codec.pieceBound(largest));
                serializeTargets[t] = own(serializeBound);
                compressTargets[t] = own(compressBound);
            }
            System.out.printf("sluice floor: %d records, %d serialized bytes, %s, %d threads%n", records.size(),
                    serializedBytes, codec.label(), cores);
        }

        private ByteBuffer own(int bytes) {
            HostBuffer buffer = memory.buffer(bytes);
            owned.add(buffer);
            return buffer.nioBuffer(0, bytes);
        }

        /** Runs {@code work} for every record index on every core, each thread taking the next record; total bytes. */
        long onEveryCore(RecordWork work) throws Exception {
            AtomicInteger next = new AtomicInteger();
            List<Future<Long>> done = new ArrayList<>();
            for (int t = 0; t < cores; t++) {
                int thread = t;
                done.add(threads.submit(() -> {
                    long bytes = 0;
                    for (int i = next.getAndIncrement(); i < records.size(); i = next.getAndIncrement()) {
                        bytes += work.run(thread, i);
                    }
                    return bytes;
                }));
            }
            long total = 0;
            for (Future<Long> f : done) {
                total += f.get(30, TimeUnit.MINUTES);
            }
            return total;
        }

        @TearDown(Level.Trial)
        public void stop() throws InterruptedException {
            if (threads != null) {
                threads.shutdownNow();
                threads.awaitTermination(1, TimeUnit.MINUTES);
            }
            serialized.clear();
            owned.forEach(HostBuffer::close);
            owned.clear();
            if (memory != null) {
                memory.close();
                scratch.close();
            }
        }
    }

    /** One record's work on one of the floor's threads; the bytes it made. */
    interface RecordWork {
        long run(int thread, int record) throws Exception;
    }

    /** Every record of the wave serialized as Arrow IPC, uncompressed, on every core. */
    @Benchmark
    public void serialize(WaveRecords wave, Blackhole blackhole) throws Exception {
        blackhole.consume(wave.onEveryCore((thread, i) -> {
            ByteBuffer target = wave.serializeTargets[thread];
            target.clear();
            return wave.records.get(i).payload().writeInto(target, wave.scratch);
        }));
    }

    /** Every serialized record of the wave framed and compressed by the run's codec, a piece each, on every core. */
    @Benchmark
    public void compress(WaveRecords wave, Blackhole blackhole) throws Exception {
        blackhole.consume(wave.onEveryCore((thread, i) -> {
            ByteBuffer target = wave.compressTargets[thread];
            target.clear();
            try (ShuffleCodec.Piece piece = wave.codec.open(new BufferChannel(target))) {
                piece.write(wave.serialized.get(i).duplicate());
                piece.finish();
            }
            return target.position();
        }));
    }
}
