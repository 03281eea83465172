package dev.sluice.spark;

import dev.sluice.spi.GrowingBytes;
import dev.sluice.spi.InputBatch;
import dev.sluice.spi.Payload;
import dev.sluice.spi.ShuffleRecord;
import dev.sluice.spi.ShuffleWriter;
import dev.sluice.spi.memory.HostAllocator;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.LongConsumer;
import org.apache.spark.serializer.SerializationStream;
import org.apache.spark.serializer.SerializerInstance;
import scala.reflect.ClassTag$;

/**
 * A map task's rows as Sluice records: each row serialized by the shuffle's serializer into its partition's heap
 * buffer (Spark's serialization stream per partition, as {@code DiskBlockObjectWriter} keeps one per partition file,
 * and as Celeborn's {@code HashBasedShuffleWriter} copies each row into a per-partition buffer), and once the rows
 * buffered reach the batch size, the batch is cut: one record per non-empty partition, in increasing partition
 * order, each a piece ({@link PieceCompression}) that the strategy compresses on whatever thread it likes. The serializer is
 * relocatable (eligibility checked it), so a partition's batches, serialized apart, read as one stream.
 *
 * <p>A record's bytes must stay unchanged until the writer commits (the SPI's contract): nothing here changes or
 * reuses a batch's arrays once cut; they live as long as the strategy keeps its records (a consolidating strategy
 * drops each once compressed). Not thread-safe: the map task's thread only ({@link CutBatch} excepted).
 */
final class RowBatches {
    private final long batchBytes;
    private final PieceCompression compression;
    private final PartitionBuffer[] buffers;
    private final SerializationStream[] streams;
    private final long[] rows;
    private long records;
    /** Bytes in the partitions' buffers, kept as rows are added: what {@link #add} compares with the batch size. */
    private long buffered;
    private long batches;
    /** Time spent in the writer's {@code write}, handing records over: the task blocked on the strategy. */
    private long writeNanos;

    RowBatches(int partitions, SerializerInstance serializer, long batchBytes, PieceCompression compression) {
        this.batchBytes = batchBytes;
        this.compression = compression;
        this.buffers = new PartitionBuffer[partitions];
        this.streams = new SerializationStream[partitions];
        this.rows = new long[partitions];
        for (int p = 0; p < partitions; p++) {
            buffers[p] = new PartitionBuffer();
            streams[p] = serializer.serializeStream(buffers[p]);
        }
    }

    /** Serializes one record into {@code partition}'s buffer; true when the batch is full and should be cut. */
    <K, V> boolean add(int partition, K key, V value) {
        SerializationStream stream = streams[partition];
        PartitionBuffer buffer = buffers[partition];
        int before = buffer.count;
        stream.writeKey(key, ClassTag$.MODULE$.Any());
        stream.writeValue(value, ClassTag$.MODULE$.Any());
        buffered += buffer.count - before;
        rows[partition]++;
        records++;
        // What the serializer buffered in its stream is not counted until flushed; a few KiB per partition.
        return buffered >= batchBytes;
    }

    /**
     * Flushes every partition's stream and hands the batch to {@code writer}, one record per non-empty partition;
     * {@code serialized} is given {@code charge} (the heap acquired for the batch) once the strategy serialized every
     * record of it, on whichever thread serialized the last.
     */
    void cut(ShuffleWriter writer, long charge, LongConsumer serialized) throws IOException, InterruptedException {
        for (SerializationStream stream : streams) {
            stream.flush();
        }
        send(writer, new CutBatch(charge, serialized));
    }

    /** Closes every stream (anything a serializer writes at its end is part of the last batch) and sends it. */
    void finish(ShuffleWriter writer, long charge, LongConsumer serialized) throws IOException, InterruptedException {
        for (SerializationStream stream : streams) {
            stream.close();
        }
        send(writer, new CutBatch(charge, serialized));
    }

    private void send(ShuffleWriter writer, CutBatch cut) throws IOException, InterruptedException {
        // Flushing or closing the streams wrote what they held: count the buffers again, once per batch.
        long total = 0;
        for (PartitionBuffer buffer : buffers) {
            total += buffer.count;
        }
        buffered = 0;
        if (total == 0) {
            Arrays.fill(rows, 0);
            cut.sent();
            return;
        }
        InputBatch batch = new InputBatch(total);
        for (int p = 0; p < buffers.length; p++) {
            PartitionBuffer buffer = buffers[p];
            if (buffer.count == 0) {
                continue;
            }
            ByteBuffer bytes = buffer.take();
            ShuffleRecord record = new ShuffleRecord(p, cut.track(compression.piece(bytes, rows[p])), batch);
            long start = System.nanoTime();
            writer.write(record);
            writeNanos += System.nanoTime() - start;
            rows[p] = 0;
        }
        cut.sent();
        batches++;
    }

    /**
     * A batch handed to the strategy, whose rows stay on the heap until the strategy serialized each of its records
     * (compressed it, or wrote it): then its heap charge goes back, once, from whichever thread serialized the last.
     * A record never serialized (the writer failed) keeps it until the task gives everything back.
     */
    static final class CutBatch {
        /** Records not yet serialized, plus one until every record was handed over. */
        private final AtomicInteger pending = new AtomicInteger(1);
        private final long charge;
        private final LongConsumer serialized;

        CutBatch(long charge, LongConsumer serialized) {
            this.charge = charge;
            this.serialized = serialized;
        }

        Payload track(Payload payload) {
            pending.incrementAndGet();
            return new Tracked(payload, this);
        }

        /** Every record was handed over. */
        void sent() {
            done();
        }

        private void done() {
            if (pending.decrementAndGet() == 0) {
                serialized.accept(charge);
            }
        }
    }

    /** A record's payload that tells its batch when it was first serialized; otherwise the payload itself. */
    private static final class Tracked implements Payload {
        private final Payload payload;
        private final CutBatch batch;
        private final AtomicBoolean serialized = new AtomicBoolean();

        Tracked(Payload payload, CutBatch batch) {
            this.payload = payload;
            this.batch = batch;
        }

        private <T> T serialized(T result) {
            if (serialized.compareAndSet(false, true)) {
                batch.done();
            }
            return result;
        }

        @Override
        public long rows() {
            return payload.rows();
        }

        @Override
        public long inputBytes() {
            return payload.inputBytes();
        }

        @Override
        public long serializedBound() {
            return payload.serializedBound();
        }

        @Override
        public long writeTo(WritableByteChannel out, HostAllocator scratch) throws IOException {
            return serialized(payload.writeTo(out, scratch));
        }

        @Override
        public int writeInto(ByteBuffer target, HostAllocator scratch) throws IOException {
            return serialized(payload.writeInto(target, scratch));
        }

        /** Buffers that hold the rows where they lie: not serialized yet (the rows are still needed). */
        @Override
        public Optional<Pieces> pieces(HostAllocator scratch) throws IOException {
            return payload.pieces(scratch);
        }

        @Override
        public GrowingBytes toHeap(HostAllocator scratch) throws IOException {
            return serialized(payload.toHeap(scratch));
        }

        @Override
        public <B> B writeSized(IntFunction<B> make, Function<B, ByteBuffer> view, Consumer<B> free,
                                HostAllocator scratch) throws IOException {
            return serialized(payload.writeSized(make, view, free, scratch));
        }
    }

    /** Bytes of the batch being built, as counted so far (a serializer's own buffer counts once flushed). */
    long buffered() {
        return buffered;
    }

    /** Records (rows) serialized so far. */
    long records() {
        return records;
    }

    /** Batches cut so far. */
    long batches() {
        return batches;
    }

    /** Nanoseconds the task's thread spent in the writer's {@code write} so far. */
    long writeNanos() {
        return writeNanos;
    }

    /**
     * One partition's serialized rows of the batch being built, in a heap array that doubles as it fills; cutting the
     * batch takes the array (no copy) and starts the next one at the size this one reached, so that a partition's
     * later batches grow at most once.
     */
    private static final class PartitionBuffer extends OutputStream {
        private static final int INITIAL = 4096;
        private byte[] buf = new byte[INITIAL];
        private int count;

        @Override
        public void write(int b) {
            ensure(1);
            buf[count++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            ensure(len);
            System.arraycopy(b, off, buf, count, len);
            count += len;
        }

        private void ensure(int more) {
            long needed = (long) count + more;
            if (needed > buf.length) {
                if (needed > Integer.MAX_VALUE - 8) {
                    throw new IllegalStateException("a partition's rows of one batch exceed 2 GiB; lower "
                            + SluiceSparkConf.BATCH_BYTES);
                }
                buf = Arrays.copyOf(buf, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(needed, 2L * buf.length)));
            }
        }

        ByteBuffer take() {
            ByteBuffer out = ByteBuffer.wrap(buf, 0, count).slice();
            buf = new byte[Math.max(INITIAL, count)];
            count = 0;
            return out;
        }
    }
}
