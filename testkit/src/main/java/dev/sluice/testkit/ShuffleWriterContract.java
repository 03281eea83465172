package dev.sluice.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.input.KeyDistribution;
import dev.sluice.core.memory.ArrowHostAllocator;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.run.MapTaskResult;
import dev.sluice.core.run.MapTaskRunner;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.strategy.StrategySpec;
import dev.sluice.core.verify.VerificationResult;
import dev.sluice.core.verify.Verifier;
import dev.sluice.spi.Bytes;
import dev.sluice.spi.MapOutput;
import dev.sluice.spi.MapTask;
import dev.sluice.spi.PartitionReader;
import dev.sluice.spi.Payload;
import dev.sluice.spi.ShuffleExecutor;
import dev.sluice.spi.ShuffleRecord;
import dev.sluice.spi.ShuffleWriter;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.memory.HostAllocator;
import dev.sluice.spi.storage.ChecksumAlgorithm;
import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.storage.IndexFile;
import dev.sluice.spi.storage.IoFaults;
import dev.sluice.spi.storage.MapOutputFiles;
import dev.sluice.spi.storage.WriteKind;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.Checksum;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Sluice's contract of a shuffle writer strategy, as JUnit 5 tests a writer author inherits by extending this class
 * and naming the strategy ({@link #strategy()}: a name registered with {@code ServiceLoader}, with options if
 * wanted). Every check runs on each of {@link #variants()}:
 * <ul>
 *   <li>every partition is the bytes of its records, byte for byte (stream header, each record's payload in input
 *       order, end marker), verified row by row, and read by Arrow Java's own reader, for every codec, 1, 7 and 200
 *       partitions, uniform and zipf keys;</li>
 *   <li>an output in files has Spark's layout: one data file, an index of numPartitions + 1 offsets that agrees with
 *       the partition lengths, and, if written, a checksum file of each partition's Adler32; nothing else is
 *       left;</li>
 *   <li>a payload failing at any record, storage failing at any write call, at any rename and at fsync, an abort
 *       mid-run and an interrupt of the task thread each fail promptly with their cause and leave no file;</li>
 *   <li>a memory limit is honoured (or refused before anything is created, as {@link #memoryLimit} says);</li>
 *   <li>16 writers at once on one executor all verify;</li>
 *   <li>after each, the Arrow allocator is back where it was, Netty's leak detector finds nothing, and no thread
 *       named {@code sluice-} is left.</li>
 * </ul>
 * A check that fails says which variant, input and step broke, and what it found.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class ShuffleWriterContract {
    /** The map task's partitions in most checks. */
    protected static final int PARTITIONS = 7;
    /** Rows per input batch: many batches per map task, or all rows in one. */
    private static final int MANY_BATCHES = 1024;
    private static final int ONE_BATCH = 1 << 20;

    /** How a strategy treats {@link WriterConfig#memoryLimit}. */
    public enum MemoryLimit {
        /** The writer's memory never passes the limit: its peak is checked. */
        HONOURED,
        /**
         * Accepted, and the writer may pass it (upstream's spill threshold; a design whose buffers are fixed): only the
         * output is checked.
         */
        ADVISORY,
        /** Refused by {@code check} with an error, before any file or thread is made. */
        REFUSED
    }

    /** The strategy under test, as {@code StrategySpec} text: {@code NAME} or {@code NAME:key=value...}. */
    protected abstract String strategy();

    /** Every spec that must hold to the contract; {@link #strategy()} alone unless a subclass lists its code paths. */
    protected List<String> variants() {
        return List.of(strategy());
    }

    /** How {@code variant} treats a memory limit. */
    protected MemoryLimit memoryLimit(String variant) {
        return MemoryLimit.HONOURED;
    }

    /**
     * Whether a failure of one of 16 concurrent writers under a tight memory limit is a documented upstream behaviour
     * of {@code variant} (the others must still verify), not a bug. None by default.
     */
    protected boolean mayFailUnderPressure(String variant, Throwable failure) {
        return false;
    }

    // ---- the arguments ----

    protected Stream<String> variantNames() {
        return variants().stream();
    }

    /** Every codec at 1, 7 and 200 partitions (uniform keys) and at 7 with zipf keys and with a single batch. */
    protected Stream<Arguments> layouts() {
        List<Arguments> all = new ArrayList<>();
        for (String variant : variants()) {
            for (ShuffleCodec codec : ShuffleCodec.values()) {
                for (int partitions : new int[] {1, PARTITIONS, 200}) {
                    all.add(Arguments.of(variant, codec, partitions, KeyDistribution.UNIFORM, MANY_BATCHES));
                }
                all.add(Arguments.of(variant, codec, PARTITIONS, KeyDistribution.ZIPF, MANY_BATCHES));
                all.add(Arguments.of(variant, codec, PARTITIONS, KeyDistribution.UNIFORM, ONE_BATCH));
            }
        }
        return all.stream();
    }

    // ---- the checks ----

    @ParameterizedTest(name = "{0}, {1}, {2} partitions, {3} keys, {4} rows per batch")
    @MethodSource("layouts")
    @Timeout(120)
    void everyPartitionHoldsItsRecordsBytesInSparksLayout(String variant, ShuffleCodec codec, int partitions,
                                                          KeyDistribution keys, int rowsPerBatch, @TempDir Path dir)
            throws Exception {
        String what = variant + ", " + codec.label() + ", " + partitions + " partitions, " + keys + " keys, "
                + rowsPerBatch + " rows per batch";
        InputSpec spec = InputSpec.of(DataSize.TINY, 0.05).withRowsPerBatch(rowsPerBatch).withKeys(keys);
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(spec, Partitioning.HASH, partitions, allocator)) {
            CountedStorage storage = new CountedStorage();
            // A limit no map task here comes near, for the strategies that need one to run.
            long limit = memoryLimit(variant) == MemoryLimit.REFUSED ? WriterConfig.UNLIMITED : 256 * Bytes.MiB;
            WriterConfig config = config(dir, partitions, limit);
            byte[][] expected = expectedPartitions(run, codec, partitions, allocator);
            try (MapOutput output = run.write(spec(variant), config, codec, storage, allocator)) {
                assertEquals(partitions, output.numPartitions(), what + ": partitions in the output");
                try (PartitionReader reader = output.openReader(storage)) {
                    for (int p = 0; p < partitions; p++) {
                        assertEquals(expected[p].length, output.partitionLengths()[p], what + ": length of partition " + p);
                        byte[] actual = bytes(reader.open(p));
                        if (!java.util.Arrays.equals(expected[p], actual)) {
                            fail(what + ": partition " + p + " is not its records' bytes in input order ("
                                    + actual.length + " bytes, expected " + expected[p].length + ")"
                                    + firstDifference(expected[p], actual));
                        }
                        assertEquals(run.expected.rows(p), ArrowReaders.rows(reader, p, codec, run.input.schema, allocator),
                                what + ": rows Arrow Java's reader reads in partition " + p);
                    }
                    VerificationResult verified = Verifier.verify(reader, run.expected, run.input.schema, codec, allocator);
                    assertTrue(verified.ok(), what + ": " + verified);
                }
                checkSparkLayout(output, dir, what);
                assertEquals(List.of(), storage.leftBehind(), what + ": files left behind outside the output");
                output.delete(storage);
            }
            assertNothingLeft(dir, allocator, run, what);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variantNames")
    @Timeout(120)
    void aPayloadFailingAtAnyRecordFailsTheWriterWithItsCauseAndLeavesNothing(String variant, @TempDir Path dir)
            throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(smallInput(), Partitioning.HASH, PARTITIONS, allocator)) {
            List<ShuffleRecord> records = run.records(ShuffleCodec.LZ4_FRAME);
            for (int k : new int[] {0, 1, records.size() / 2, records.size() - 1}) {
                List<ShuffleRecord> failing = new ArrayList<>(records);
                ShuffleRecord victim = records.get(k);
                failing.set(k, new ShuffleRecord(victim.partitionId(),
                        new FailingPayload(victim.payload(), "injected payload failure at record " + k)));
                String what = variant + ", payload of record " + k + " of " + records.size() + " failing";
                Exception e = assertThrows(Exception.class, () -> {
                    try (MapOutput output = writeAll(variant, run, failing, limitedConfig(dir, variant),
                            new CountedStorage(), allocator)) {
                        output.delete(new CountedStorage());
                    }
                }, what + ": the writer committed");
                assertTrue(Causes.of(e).contains("injected payload failure at record " + k), what + ": " + Causes.of(e));
                assertNothingLeft(dir, allocator, run, what);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variantNames")
    @Timeout(180)
    void storageFailingAtAnyWriteCallLeavesNothing(String variant, @TempDir Path dir) throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(smallInput(), Partitioning.ROUNDROBIN, PARTITIONS, allocator)) {
            WriterConfig config = limitedConfig(dir, variant);
            // Which writes happen can depend on timing (spills; a writer that writes what is ready while the rest is
            // still being compressed writes in more calls while the JIT is cold), so the calls are counted twice and
            // the fewer taken, and a run that makes fewer calls than that must succeed and verify. At least a quarter
            // of the runs must fail.
            long calls = Long.MAX_VALUE;
            for (int count = 0; count < 2; count++) {
                CountedStorage counting = new CountedStorage();
                try (MapOutput output = run.write(spec(variant), config, LIMITED_CODEC, counting, allocator)) {
                    output.delete(counting);
                }
                calls = Math.min(calls, counting.counters().snapshot().writeCalls);
            }
            assertTrue(calls >= 1, variant + ": wrote nothing through the storage");
            long step = Math.max(1, calls / 60);
            int failed = 0;
            int runs = 0;
            for (long k = 1; k <= calls; k += step) {
                runs++;
                String what = variant + ", storage failing at write call #" + k + " of " + calls;
                CountedStorage failing = new CountedStorage(IoFaults.failingWriteCall(k));
                try (MapOutput output = run.write(spec(variant), config, LIMITED_CODEC, failing, allocator)) {
                    assertVerifies(run, output, failing, allocator, ShuffleCodec.LZ4_FRAME, what);
                    output.delete(failing);
                } catch (Exception e) {
                    failed++;
                    assertTrue(Causes.of(e).contains("injected fault: write call #"), what + ": " + Causes.of(e));
                }
                assertNothingLeft(dir, allocator, run, what);
            }
            assertTrue(failed * 4 >= runs, variant + ": only " + failed + " of " + runs + " runs failed");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variantNames")
    @Timeout(120)
    void storageFailingAtEachRenameOrFsyncLeavesNothing(String variant, @TempDir Path dir) throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(smallInput(), Partitioning.ROUNDROBIN, PARTITIONS, allocator)) {
            WriterConfig config = limitedConfig(dir, variant, true);
            CountedStorage counting = new CountedStorage();
            try (MapOutput output = run.write(spec(variant), config, LIMITED_CODEC, counting, allocator)) {
                output.delete(counting);
            }
            long renames = counting.counters().snapshot().renames;
            long fsyncs = counting.counters().snapshot().fsyncs;
            for (long k = 1; k <= renames; k++) {
                assertFailsCleanly(variant, run, allocator, dir, config, IoFaults.failingRename(k), "rename #" + k);
            }
            if (fsyncs > 0) {
                IoFaults failingForce = new IoFaults() {
                    @Override
                    public void beforeForce(Path file) throws IOException {
                        throw new IOException("injected fault: fsync of " + file.getFileName());
                    }
                };
                assertFailsCleanly(variant, run, allocator, dir, config, failingForce, "fsync of");
            }
        }
    }

    /**
     * The task thread is interrupted halfway through its records (Spark kills a task so); on a slow disk, so that
     * background work is still going. The writer must fail with the interrupt and clean up, not commit.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("variantNames")
    @Timeout(60)
    void anInterruptOfTheTaskThreadStopsTheWriterCleanly(String variant, @TempDir Path dir) throws Exception {
        IoFaults slowDisk = new IoFaults() {
            @Override
            public void beforeWrite(long callNumber, Path file, long bytes, WriteKind kind) throws IOException {
                try {
                    Thread.sleep(2);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted", e);
                }
            }
        };
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(InputSpec.of(DataSize.TINY, 1).withRowsPerBatch(2048),
                     Partitioning.HASH, PARTITIONS, allocator)) {
            List<ShuffleRecord> records = run.records(ShuffleCodec.LZ4_FRAME);
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread task = new Thread(() -> {
                CountedStorage storage = new CountedStorage(slowDisk);
                try (ShuffleExecutor executor = spec(variant).createExecutor(limitedConfig(dir, variant), storage,
                        allocator)) {
                    try (ShuffleWriter writer = executor.createMapOutputWriter(run.task(ShuffleCodec.LZ4_FRAME))) {
                        for (int i = 0; i < records.size(); i++) {
                            if (i == records.size() / 2) {
                                Thread.currentThread().interrupt();
                            }
                            writer.write(records.get(i));
                        }
                        try (MapOutput output = writer.commit()) {
                            output.delete(storage);
                        }
                    }
                } catch (Throwable t) {
                    thrown.set(t);
                }
            }, "map-task");
            task.start();
            task.join(TimeUnit.SECONDS.toMillis(30));
            assertFalse(task.isAlive(), variant + ": the task thread still runs 30 s after its interrupt");
            assertTrue(thrown.get() != null, variant + ": the writer committed despite the interrupt");
            assertTrue(Causes.of(thrown.get()).contains("Interrupt"), variant + ": " + Causes.of(thrown.get()));
            assertNothingLeft(dir, allocator, run, variant + " interrupted");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variantNames")
    @Timeout(60)
    void abortMidRunLeavesNothingAndRefusesMoreRecords(String variant, @TempDir Path dir) throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(smallInput(), Partitioning.HASH, PARTITIONS, allocator)) {
            CountedStorage storage = new CountedStorage();
            try (ShuffleExecutor executor = spec(variant).createExecutor(limitedConfig(dir, variant), storage, allocator)) {
                ShuffleWriter writer = executor.createMapOutputWriter(run.task(ShuffleCodec.LZ4_FRAME));
                List<ShuffleRecord> records = run.records(ShuffleCodec.LZ4_FRAME);
                for (ShuffleRecord record : records.subList(0, records.size() / 2)) {
                    writer.write(record);
                }
                writer.abort(new IOException("map task killed"));
                assertThrows(IllegalStateException.class, () -> writer.write(records.get(records.size() / 2)),
                        variant + ": an aborted writer took another record");
                assertThrows(IllegalStateException.class, writer::commit, variant + ": an aborted writer committed");
                writer.close();
                assertEquals(List.of(), storage.leftBehind(), variant + " aborted: files left behind");
            }
            assertNothingLeft(dir, allocator, run, variant + " aborted");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variantNames")
    @Timeout(120)
    void aMemoryLimitIsHonoured(String variant, @TempDir Path dir) throws Exception {
        long limit = Bytes.MiB;
        InputSpec spec = InputSpec.of(DataSize.TINY, 3).withRowsPerBatch(4096);
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(spec, Partitioning.HASH, 50, allocator)) {
            ShuffleCodec codec = ShuffleCodec.LZ4_BLOCK;
            WriterConfig config = config(dir, 50, limit);
            CountedStorage storage = new CountedStorage();
            MemoryLimit treatment = memoryLimit(variant);
            if (treatment == MemoryLimit.REFUSED) {
                RuntimeException e = assertThrows(RuntimeException.class,
                        () -> spec(variant).createExecutor(config, storage, allocator).close(),
                        variant + " was declared to refuse a memory limit, and took one");
                assertTrue(String.valueOf(e.getMessage()).contains("memory"), variant + ": " + e);
                assertNothingLeft(dir, allocator, run, variant + " refusing a memory limit");
                return;
            }
            assertTrue(run.input.bytes >= 10 * limit, "the input is not 10x the limit");
            try (ShuffleExecutor executor = spec(variant).createExecutor(config, storage, allocator)) {
                MapTaskResult task = MapTaskRunner.run(executor, run.input, codec);
                try (MapOutput output = task.output) {
                    if (treatment == MemoryLimit.HONOURED) {
                        assertTrue(task.peakBufferedBytes <= limit, variant + ": peak memory "
                                + task.peakBufferedBytes + " bytes, over the limit of " + limit);
                    }
                    assertVerifies(run, output, storage, allocator, codec, variant + " under a memory limit");
                    output.delete(storage);
                }
            }
            assertNothingLeft(dir, allocator, run, variant + " under a memory limit");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variantNames")
    @Timeout(240)
    void sixteenWritersAtOnceOnOneExecutorAllVerify(String variant, @TempDir Path dir) throws Exception {
        int tasks = 16;
        int partitions = 20;
        MemoryLimit treatment = memoryLimit(variant);
        long limit = treatment == MemoryLimit.REFUSED ? WriterConfig.UNLIMITED : 512 * Bytes.KiB;
        InputSpec spec = InputSpec.of(DataSize.TINY, 0.25).withRowsPerBatch(2048);
        try (BufferAllocator allocator = new RootAllocator();
             MapTaskRun run = new MapTaskRun(spec, Partitioning.HASH, partitions, allocator)) {
            CountedStorage storage = new CountedStorage();
            ShuffleCodec codec = ShuffleCodec.LZ4_FRAME;
            WriterConfig config = config(dir, partitions, limit);
            List<ShuffleRecord> records = run.records(codec);
            ExecutorService threads = Executors.newFixedThreadPool(tasks);
            int failedUnderPressure = 0;
            try (ShuffleExecutor executor = spec(variant).createExecutor(config, storage, allocator)) {
                List<Future<VerificationResult>> results = new ArrayList<>();
                for (int t = 0; t < tasks; t++) {
                    long mapId = t;
                    results.add(threads.submit(() -> {
                        MapOutput output;
                        MapTask task = new MapTask(MapTaskRun.SHUFFLE_ID, mapId, run.input.format(codec));
                        try (ShuffleWriter writer = executor.createMapOutputWriter(task)) {
                            for (ShuffleRecord record : records) {
                                writer.write(record);
                            }
                            output = writer.commit();
                            if (treatment == MemoryLimit.HONOURED) {
                                assertTrue(writer.peakBufferedBytes() <= limit, variant + ", map " + mapId
                                        + ": peak " + writer.peakBufferedBytes() + " over the limit of " + limit);
                            }
                        }
                        try (output; PartitionReader reader = output.openReader(storage)) {
                            VerificationResult verified = Verifier.verify(reader, run.expected, run.input.schema,
                                    codec, allocator);
                            output.delete(storage);
                            return verified;
                        }
                    }));
                }
                for (Future<VerificationResult> result : results) {
                    try {
                        VerificationResult r = result.get(200, TimeUnit.SECONDS);
                        assertTrue(r.ok(), variant + ", one of " + tasks + " concurrent writers: " + r);
                    } catch (ExecutionException e) {
                        if (!mayFailUnderPressure(variant, e.getCause())) {
                            throw e;
                        }
                        failedUnderPressure++;
                    }
                }
            } finally {
                threads.shutdownNow();
                assertTrue(threads.awaitTermination(30, TimeUnit.SECONDS));
            }
            if (failedUnderPressure > 0) {
                System.out.printf("%s: %d of %d tasks failed under memory pressure, as declared%n", variant,
                        failedUnderPressure, tasks);
            }
            assertNothingLeft(dir, allocator, run, variant + " x" + tasks);
        }
    }

    // ---- what the checks share ----

    /** The strategy spec of {@code variant}, found by {@code ServiceLoader}. */
    protected static StrategySpec spec(String variant) {
        return StrategySpec.parse("strategy", variant);
    }

    private static InputSpec smallInput() {
        return InputSpec.of(DataSize.TINY, 0.25).withRowsPerBatch(2048);
    }

    private static WriterConfig config(Path dir, int partitions, long memoryLimit) {
        return WriterConfig.builder().partitions(partitions).threads(3).memoryLimit(memoryLimit)
                .outputDir(dir).build();
    }

    /** A small memory limit (partials go to file) unless the variant refuses one. */
    /** The codec of the records that writes under {@link #limitedConfig} are given. */
    private static final ShuffleCodec LIMITED_CODEC = ShuffleCodec.LZ4_FRAME;

    private WriterConfig limitedConfig(Path dir, String variant) {
        return limitedConfig(dir, variant, false);
    }

    private WriterConfig limitedConfig(Path dir, String variant, boolean fsync) {
        long limit = memoryLimit(variant) == MemoryLimit.REFUSED ? WriterConfig.UNLIMITED : 256 * Bytes.KiB;
        return WriterConfig.builder().partitions(PARTITIONS).threads(3).memoryLimit(limit)
                .fsync(fsync).outputDir(dir).build();
    }

    private static MapOutput writeAll(String variant, MapTaskRun run, List<ShuffleRecord> records, WriterConfig config,
                                      CountedStorage storage, BufferAllocator allocator) throws Exception {
        try (ShuffleExecutor executor = spec(variant).createExecutor(config, storage, allocator);
             ShuffleWriter writer = executor.createMapOutputWriter(run.task(LIMITED_CODEC))) {
            for (ShuffleRecord record : records) {
                writer.write(record);
            }
            return writer.commit();
        }
    }

    private void assertFailsCleanly(String variant, MapTaskRun run, BufferAllocator allocator, Path dir,
                                    WriterConfig config, IoFaults faults, String what) throws Exception {
        CountedStorage storage = new CountedStorage(faults);
        Exception e = assertThrows(Exception.class, () -> run.write(spec(variant), config, LIMITED_CODEC, storage,
                        allocator),
                variant + ": committed despite a failing " + what);
        assertTrue(Causes.of(e).contains("injected fault: " + what), variant + ", " + what + ": " + Causes.of(e));
        assertEquals(List.of(), storage.leftBehind(), variant + ", failing " + what + ": files left behind");
        assertNothingLeft(dir, allocator, run, variant + ", failing " + what);
    }

    /** Each partition as the records' payloads make it: header, each record's bytes in input order, end marker. */
    private static byte[][] expectedPartitions(MapTaskRun run, ShuffleCodec codec, int partitions,
                                               BufferAllocator allocator) throws IOException {
        ByteArrayOutputStream[] streams = new ByteArrayOutputStream[partitions];
        MapTask task = run.task(codec);
        for (ShuffleRecord record : run.records(codec)) {
            int p = record.partitionId();
            if (streams[p] == null) {
                streams[p] = new ByteArrayOutputStream();
                streams[p].write(task.format.streamHeader());
            }
            record.payload().writeTo(Channels.newChannel(streams[p]), ArrowHostAllocator.of(allocator));
        }
        byte[][] expected = new byte[partitions][];
        for (int p = 0; p < partitions; p++) {
            if (streams[p] == null) {
                expected[p] = new byte[0];
            } else {
                streams[p].write(task.format.endOfStream());
                expected[p] = streams[p].toByteArray();
            }
        }
        return expected;
    }

    /**
     * An output in files: the data file holds the partitions contiguous, the index their offsets, the checksum file
     * (if any, at most one) their checksums by the algorithm it is named after, and the directory holds nothing else.
     */
    private static void checkSparkLayout(MapOutput output, Path dir, String what) throws IOException {
        List<Path> files = output.files();
        try (Stream<Path> listed = Files.list(dir)) {
            List<Path> present = listed.sorted().collect(Collectors.toList());
            List<Path> committed = files.stream().sorted().collect(Collectors.toList());
            if (!files.isEmpty()) {
                assertEquals(committed, present, what + ": the output directory holds other files than the output's");
            }
        }
        if (files.isEmpty()) {
            return; // the output lives elsewhere (a catalog of segments): its bytes were checked above
        }
        MapOutputFiles layout = new MapOutputFiles(dir, output.shuffleId(), output.mapId());
        assertTrue(files.contains(layout.dataFile()), what + ": no data file " + layout.dataFile().getFileName());
        assertTrue(files.contains(layout.indexFile()), what + ": no index file " + layout.indexFile().getFileName());
        long[] lengths = output.partitionLengths();
        long[] offsets = IndexFile.decode(ByteBuffer.wrap(Files.readAllBytes(layout.indexFile())),
                layout.indexFile().toString());
        assertEquals(lengths.length + 1, offsets.length, what + ": index entries");
        assertEquals(0, offsets[0], what + ": first index offset");
        for (int p = 0; p < lengths.length; p++) {
            assertEquals(lengths[p], offsets[p + 1] - offsets[p], what + ": index length of partition " + p);
        }
        byte[] data = Files.readAllBytes(layout.dataFile());
        assertEquals(offsets[lengths.length], data.length, what + ": data file size against the index");
        List<ChecksumAlgorithm> named = new ArrayList<>();
        for (ChecksumAlgorithm algorithm : ChecksumAlgorithm.values()) {
            if (!files.contains(layout.checksumFile(algorithm))) {
                continue;
            }
            named.add(algorithm);
            ByteBuffer checksums = ByteBuffer.wrap(Files.readAllBytes(layout.checksumFile(algorithm)));
            assertEquals(lengths.length * Long.BYTES, checksums.remaining(), what + ": checksum file size");
            for (int p = 0; p < lengths.length; p++) {
                Checksum sum = algorithm.newChecksum();
                sum.update(data, (int) offsets[p], (int) lengths[p]);
                assertEquals(sum.getValue(), checksums.getLong(), what + ": " + algorithm + " of partition " + p);
            }
        }
        assertTrue(named.size() <= 1, what + ": checksum files of " + named);
    }

    private static void assertVerifies(MapTaskRun run, MapOutput output, CountedStorage storage,
                                       BufferAllocator allocator, ShuffleCodec codec, String what) throws Exception {
        try (PartitionReader reader = output.openReader(storage)) {
            VerificationResult verified = Verifier.verify(reader, run.expected, run.input.schema, codec, allocator);
            assertTrue(verified.ok(), what + ": " + verified);
        }
    }

    /** No file in {@code dir}, the allocator holding only the input, no leaked Netty buffer, no thread. */
    private static void assertNothingLeft(Path dir, BufferAllocator allocator, MapTaskRun run, String what)
            throws IOException {
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(), left.map(p -> p.getFileName().toString()).collect(Collectors.toList()),
                    what + ": files left behind");
        }
        Leaks.assertNone(allocator, run.heldBytes(), what);
    }

    /** Everything {@code channel} holds (a partition, as a reader serves it); closes it. */
    public static byte[] bytes(ReadableByteChannel channel) throws IOException {
        try (channel) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteBuffer buffer = ByteBuffer.allocate(8192);
            while (channel.read(buffer) >= 0) {
                buffer.flip();
                out.write(buffer.array(), 0, buffer.limit());
                buffer.clear();
            }
            return out.toByteArray();
        }
    }

    private static String firstDifference(byte[] expected, byte[] actual) {
        int n = Math.min(expected.length, actual.length);
        for (int i = 0; i < n; i++) {
            if (expected[i] != actual[i]) {
                return "; first difference at byte " + i;
            }
        }
        return "; one is a prefix of the other";
    }

    /** A payload that fails when it is serialized, wherever the strategy does it. */
    private static final class FailingPayload implements Payload {
        private final Payload payload;
        private final String message;

        FailingPayload(Payload payload, String message) {
            this.payload = payload;
            this.message = message;
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
            throw new IOException(message);
        }

        @Override
        public <B> B writeSized(java.util.function.IntFunction<B> make,
                                java.util.function.Function<B, ByteBuffer> view, java.util.function.Consumer<B> free,
                                HostAllocator scratch) throws IOException {
            throw new IOException(message);
        }
    }
}
