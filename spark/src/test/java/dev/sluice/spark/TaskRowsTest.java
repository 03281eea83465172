package dev.sluice.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.spi.InputBatch;
import dev.sluice.spi.MapOutput;
import dev.sluice.spi.ShuffleRecord;
import dev.sluice.spi.ShuffleWriter;
import java.util.IdentityHashMap;
import java.util.Map;
import org.apache.spark.SparkConf;
import org.apache.spark.memory.TaskMemoryManager;
import org.apache.spark.memory.UnifiedMemoryManager;
import org.apache.spark.serializer.KryoSerializer;
import org.junit.jupiter.api.Test;

/** Sluice's task memory consumer against a memory manager with less heap than the task's rows, no SparkContext. */
class TaskRowsTest {
    private static final long MIB = 1L << 20;

    /**
     * Spark grants 3 MiB of the 6 MB of rows: once denied, the batch goes on to one step (1 MiB) past the grant and is
     * cut there, not at every row; every row reaches the writer once, and the task ends holding no memory.
     */
    @Test
    void deniedHeapCutsTheBatchOneStepPastTheGrantAndEveryRowReachesTheWriter() throws Exception {
        UnifiedMemoryManager memory = new UnifiedMemoryManager(new SparkConf(false), 3 * MIB, 0, 1);
        TaskMemoryManager task = new TaskMemoryManager(memory, 1);
        RowBatches batches = new RowBatches(4, new KryoSerializer(new SparkConf(false)).newInstance(), 64 * MIB,
                new PieceCompression.Framed(ShuffleCodec.LZ4_BLOCK));
        Map<InputBatch, Long> cut = write(task, batches, 6_000);
        assertTrue(cut.size() >= 2 && cut.size() <= 3, cut.size() + " batches: " + cut.values());
        for (long bytes : cut.values()) {
            assertTrue(bytes <= 4 * MIB + 64 * 1024, "a batch of " + bytes + " bytes, past 3 MiB granted + 1 MiB");
        }
        assertEquals(0, task.getMemoryConsumptionForThisTask(), "task memory held after finish");
        assertEquals(0, task.cleanUpAllAllocatedMemory(), "memory the consumer did not give back");
    }

    /**
     * Another consumer of the task holds all the heap and will not spill: Sluice is denied from the first row, and
     * still cuts batches of about one step (1 MiB), not one per row.
     */
    @Test
    void heapHeldElsewhereCutsBatchesOfOneStepNotOneRowEach() throws Exception {
        UnifiedMemoryManager memory = new UnifiedMemoryManager(new SparkConf(false), 3 * MIB, 0, 1);
        TaskMemoryManager task = new TaskMemoryManager(memory, 1);
        Holder holder = new Holder(task);
        assertEquals(3 * MIB, holder.acquireMemory(3 * MIB));
        RowBatches batches = new RowBatches(4, new KryoSerializer(new SparkConf(false)).newInstance(), 64 * MIB,
                new PieceCompression.Framed(ShuffleCodec.LZ4_BLOCK));
        Map<InputBatch, Long> cut = write(task, batches, 6_000);
        assertTrue(cut.size() >= 5 && cut.size() <= 7, cut.size() + " batches of 6 MB of rows");
        for (long bytes : cut.values()) {
            assertTrue(bytes <= MIB + 64 * 1024, "a batch of " + bytes + " bytes with nothing granted");
        }
        holder.freeMemory(3 * MIB);
        assertEquals(0, task.cleanUpAllAllocatedMemory(), "memory the consumer did not give back");
    }

    /**
     * A cut batch's rows stay on the heap until the strategy serialized them, so Spark's grant for them is held until
     * the last record of the batch was serialized, on whatever thread, and given back then, once; another consumer's
     * request gives nothing back at once and cuts the batch at the next row.
     */
    @Test
    void aCutBatchsHeapIsHeldUntilTheStrategySerializedEveryRecordOfIt() throws Exception {
        UnifiedMemoryManager memory = new UnifiedMemoryManager(new SparkConf(false), 64 * MIB, 0, 1);
        TaskMemoryManager task = new TaskMemoryManager(memory, 1);
        RowBatches batches = new RowBatches(4, new KryoSerializer(new SparkConf(false)).newInstance(), 64 * MIB,
                new PieceCompression.Framed(ShuffleCodec.LZ4_BLOCK));
        java.util.List<ShuffleRecord> handed = new java.util.ArrayList<>();
        TaskRows rows = new TaskRows(task, batches);
        rows.open(writer(handed::add));
        byte[] value = new byte[1000];
        for (int i = 0; i < 2000; i++) {
            rows.add(i % 4, i, value);
        }
        long building = rows.getUsed();
        assertTrue(building >= 2 * MIB, building + " bytes acquired for 2 MB of rows");
        Holder other = new Holder(task);
        assertEquals(0, rows.spill(MIB, other), "cutting frees no heap until the rows are compressed");
        assertEquals(building, rows.getUsed());
        rows.add(0, -1, value);
        assertEquals(4, handed.size(), "the batch was cut at the next row, one record a partition");
        assertEquals(1, rows.spills(), "a batch cut because Spark asked");
        assertEquals(building, rows.getUsed(), "the cut batch's heap is held while its records wait");
        Thread other1 = new Thread(() -> serialize(handed.subList(0, 2)));
        other1.start();
        other1.join();
        assertEquals(building, rows.getUsed(), "two of four records serialized");
        serialize(handed.subList(2, 4));
        assertEquals(0, rows.getUsed(), "every record serialized: the batch's heap is back");
        serialize(handed.subList(0, 4));
        assertEquals(0, rows.getUsed(), "serialized again: given back once");
        rows.finish();
        rows.close();
        assertEquals(0, task.cleanUpAllAllocatedMemory(), "memory the consumer did not give back");
    }

    /** A task that ends with records never serialized gives their heap back all the same. */
    @Test
    void aTaskGivesBackTheHeapOfBatchesNeverSerialized() throws Exception {
        UnifiedMemoryManager memory = new UnifiedMemoryManager(new SparkConf(false), 64 * MIB, 0, 1);
        TaskMemoryManager task = new TaskMemoryManager(memory, 1);
        RowBatches batches = new RowBatches(4, new KryoSerializer(new SparkConf(false)).newInstance(), MIB,
                new PieceCompression.Framed(ShuffleCodec.LZ4_BLOCK));
        java.util.List<ShuffleRecord> handed = new java.util.ArrayList<>();
        TaskRows rows = new TaskRows(task, batches);
        rows.open(writer(handed::add));
        byte[] value = new byte[1000];
        for (int i = 0; i < 3000; i++) {
            rows.add(i % 4, i, value);
        }
        rows.finish();
        assertTrue(rows.getUsed() >= 2 * MIB, rows.getUsed() + " bytes held for batches not serialized");
        rows.close();
        assertEquals(0, rows.getUsed());
        serialize(handed);
        assertEquals(0, rows.getUsed(), "a late serialization after the task gave everything back");
        assertEquals(0, task.cleanUpAllAllocatedMemory(), "memory the consumer did not give back");
    }

    private static void serialize(java.util.List<ShuffleRecord> records) {
        for (ShuffleRecord record : records) {
            try {
                record.payload().writeTo(java.nio.channels.Channels.newChannel(java.io.OutputStream.nullOutputStream()),
                        null);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    /** A writer that gives each record it is handed to {@code handed} and commits nothing. */
    private static ShuffleWriter writer(java.util.function.Consumer<ShuffleRecord> handed) {
        return new ShuffleWriter() {
            @Override
            public void write(ShuffleRecord record) {
                handed.accept(record);
            }

            @Override
            public MapOutput commit() {
                throw new UnsupportedOperationException();
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

    /** A consumer that holds what it got and gives nothing back when asked. */
    private static final class Holder extends org.apache.spark.memory.MemoryConsumer {
        Holder(TaskMemoryManager task) {
            super(task, org.apache.spark.memory.MemoryMode.ON_HEAP);
        }

        @Override
        public long spill(long size, org.apache.spark.memory.MemoryConsumer trigger) {
            return 0;
        }
    }

    /**
     * {@code n} rows of about 1 KB through a task's consumer, each record serialized as it arrives; the batches cut,
     * each with its bytes.
     */
    private static Map<InputBatch, Long> write(TaskMemoryManager task, RowBatches batches, int n) throws Exception {
        Map<InputBatch, Long> cut = new IdentityHashMap<>();
        long[] records = new long[1];
        TaskRows rows = new TaskRows(task, batches);
        rows.open(writer(record -> {
            cut.put(record.inputBatch(), record.inputBatch().hostBytes());
            records[0] += record.rows();
            serialize(java.util.List.of(record));
        }));
        byte[] value = new byte[1000];
        for (int i = 0; i < n; i++) {
            rows.add(i % 4, i, value);
            assertTrue(task.getMemoryConsumptionForThisTask() <= 3 * MIB, "granted past the manager's heap");
        }
        rows.finish();
        rows.close();
        assertEquals(n, records[0], "rows that reached the writer");
        assertEquals(0, rows.getUsed(), "Sluice's task memory after finish");
        return cut;
    }
}
