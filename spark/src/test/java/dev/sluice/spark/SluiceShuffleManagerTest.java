package dev.sluice.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.hash;
import static org.apache.spark.sql.functions.spark_partition_id;
import static org.apache.spark.sql.functions.sum;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.spi.InvalidParameterException;
import dev.sluice.spi.storage.Cleanup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.spark.HashPartitioner;
import org.apache.spark.ShuffleDependency;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.SparkException;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.executor.ShuffleWriteMetrics;
import org.apache.spark.rdd.ShuffledRDD;
import org.apache.spark.scheduler.MapStatus;
import org.apache.spark.scheduler.MapStatus$;
import org.apache.spark.serializer.KryoSerializer;
import org.apache.spark.shuffle.IndexShuffleBlockResolver;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import scala.Tuple2;

/**
 * Real Spark ({@code local[2]}) with Sluice's manager: one session for every test, the strategy chosen per job with
 * the local property, stock Spark's results as the reference, read back by Spark's own reader.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SluiceShuffleManagerTest {
    private Path localDir;
    /** Three local dirs, as on a node with three disks: Spark hashes each map's files across them. */
    private List<Path> localDirs;
    private SparkSession spark;
    private List<Row> stock;

    @BeforeAll
    void startSpark() throws IOException {
        localDir = Files.createTempDirectory("sluice-spark-test");
        localDirs = List.of(localDir.resolve("disk0"), localDir.resolve("disk1"), localDir.resolve("disk2"));
        spark = SparkSession.builder().master("local[2]").appName("sluice-manager-test")
                .config("spark.shuffle.manager", SluiceShuffleManager.class.getName())
                .config(SluiceSparkConf.STRATEGY, "per-batch")
                // Several batches per map task, so that partitions are chains of pieces.
                .config(SluiceSparkConf.BATCH_BYTES, "256k")
                .config(SluiceSparkConf.THREADS, "4")
                .config(SluiceSparkConf.MAX_PARTITIONS, "40")
                // One limit for the JVM's strategies together, well under a job's map output: partials spill.
                .config(SluiceSparkConf.MEMORY_LIMIT, "1m")
                .config("spark.shuffle.sort.io.plugin.class", RecordingShuffleDataIO.class.getName())
                .config("spark.shuffle.plugin.__config__.sluice.test.marker", "42")
                .config("spark.local.dir", localDirs.stream().map(Path::toString).collect(Collectors.joining(",")))
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "8")
                .getOrCreate();
        stock = job("stock");
    }

    /**
     * Stops the manager with a buffer still held in Sluice's allocator: its stop logs the leak and carries on, without
     * throwing (SparkEnv.stop calls it with nothing around it, and would skip the block manager's and the RPC
     * environment's stop), then the session. The buffer is given back after, and the allocator ends at zero.
     */
    @AfterAll
    void stopSparkWithAForcedLeak() throws IOException {
        SluiceShuffleManager manager = manager();
        List<Path> scratch = manager.scratchDirectories();
        SluiceExecutors shared = manager.shared();
        assertNotNull(shared, "no Sluice map task ran");
        BufferAllocator leaking = shared.allocator().newChildAllocator("test-leak", 0, Long.MAX_VALUE);
        ArrowBuf leaked = leaking.buffer(4096);
        try {
            // The manager's own stop, not through SparkContext.stop, which would log and swallow what it threw
            // (Utils.tryLogNonFatalError around the env's stop). Spark stops it once more below: a no-op then.
            assertDoesNotThrow(manager::stop, "the manager's stop with a strategy's buffer still held");
            spark.stop();
            assertTrue(spark.sparkContext().isStopped(), "the SparkContext did not stop");
        } finally {
            // Spark keeps a JVM's local root dirs from the first SparkContext (Utils.localRootDirs): forget them, or
            // the next test class's context makes its temporary dirs in this deleted one, and leaves it behind.
            org.apache.spark.util.Utils$.MODULE$.clearLocalRootDirs();
            leaked.close();
            assertEquals(0, shared.allocatedBytes(), "Sluice's allocator after the leaked buffer was given back");
            // The root was closed (and said the child was open): closing the child now is refused by the root.
            assertThrows(IllegalStateException.class, leaking::close);
            assertEquals(3, scratch.size(), "Sluice's scratch directories: " + scratch);
            for (Path dir : scratch) {
                assertFalse(Files.exists(dir), "stop left Sluice's scratch directory " + dir);
            }
            Cleanup.deleteTree(localDir);
        }
    }

    /**
     * The seed's shape, small: a range repartitioned round robin, then per output partition its count, sum of ids
     * and a hash of a string column, read through a second shuffle (the aggregation's), all under {@code strategy}.
     */
    private List<Row> job(String strategy) {
        // A session setting reaches the tasks: SQL runs each query with its session's spark.* settings as local
        // properties (SQLExecution.withSQLConfPropagated), also on adaptive execution's threads.
        spark.conf().set(SluiceSparkConf.STRATEGY, strategy);
        try {
            Dataset<Row> rows = spark.range(0, 300_000, 1, 2)
                    .selectExpr("id", "concat('row-', cast(id * 7 as string)) as s")
                    .repartition(16)
                    .withColumn("p", spark_partition_id());
            return rows.groupBy("p").agg(count("*"), sum("id"), sum(hash(col("s")))).orderBy("p").collectAsList();
        } finally {
            spark.conf().unset(SluiceSparkConf.STRATEGY);
        }
    }

    private static SluiceShuffleManager manager() {
        return (SluiceShuffleManager) SparkEnv.get().shuffleManager();
    }

    @ParameterizedTest
    @ValueSource(strings = {"per-batch", "buffered", "async", "consolidated-best", "upstream-head"})
    void everyBuiltInStrategyGivesStockSparksResultsReadByItsOwnReader(String strategy) {
        long writtenBefore = manager().counters().bytesWritten;
        long batchesBefore = manager().batchesCut();
        List<Row> result = job(strategy);
        assertEquals(16, result.size());
        assertEquals(stock, result, strategy + " gave other rows per partition than stock Spark");
        assertTrue(manager().counters().bytesWritten > writtenBefore, strategy + " wrote nothing through Sluice");
        // Two map tasks, each cut into several batches (256k each).
        assertTrue(manager().batchesCut() > batchesBefore + 2, "batches cut: " + manager().batchesCut());
        assertTrue(manager().offHeapPeakBytes() > 0, "Sluice's direct memory was never read as held");
        assertTrue(manager().startedExecutors().stream().anyMatch(e -> e.startsWith(strategy + " / 16 partitions")),
                manager().startedExecutors().toString());
    }

    /**
     * Three local dirs: each map task writes in Sluice's scratch directory of the local dir where Spark will put its
     * data file, so every dir receives data files and every hand-over is a rename (the file at Spark's name is the very
     * file Sluice wrote: the same inode), never a copy across devices.
     */
    @Test
    void threeLocalDirsAllReceiveDataFilesAndEveryHandOverIsARename() throws IOException {
        long[] before = manager().transfers();
        int shuffle = spark.sparkContext().newShuffleId() + 1;
        spark.conf().set(SluiceSparkConf.STRATEGY, "buffered");
        try {
            // 30 map tasks: Spark hashes each one's data file to one of the three dirs.
            assertEquals(30_000, spark.range(0, 30_000, 1, 30).repartition(4).count());
        } finally {
            spark.conf().unset(SluiceSparkConf.STRATEGY);
        }
        long[] after = manager().transfers();
        assertTrue(after[0] - before[0] >= 30, "hand-overs by rename: " + (after[0] - before[0]));
        assertEquals(before[1], after[1], "hand-overs that left another file at Spark's name (a copy)");
        assertEquals(before[2], after[2], "hand-overs from a scratch dir in another local dir (a copy across disks)");
        for (Path dir : localDirs) {
            Set<String> data = files(dir).stream().map(f -> Path.of(f).getFileName().toString())
                    .filter(f -> f.startsWith("shuffle_" + shuffle + "_") && f.endsWith(".data"))
                    .collect(Collectors.toSet());
            assertFalse(data.isEmpty(), dir + " received no data file of shuffle " + shuffle);
        }
        for (Path scratch : manager().scratchDirectories()) {
            assertTrue(localDirs.stream().anyMatch(d -> scratch.startsWith(d)), scratch + " is in no local dir");
        }
    }

    /**
     * Twenty shuffles, each of its own partition count, each starting a strategy executor (a writer configuration
     * holds the partition count); once Spark unregisters them (its ContextCleaner's path, blocking), no executor and
     * no strategy thread is left, and their fallbacks are forgotten.
     */
    @Test
    void anApplicationWithTwentyShufflesOfDifferentPartitionCountsEndsWithTheExecutorsThreadsRetired() {
        long threadsBefore = strategyThreads();
        long startedBefore = manager().executorsStartedSoFar();
        int before = spark.sparkContext().newShuffleId();
        spark.conf().set(SluiceSparkConf.STRATEGY, "buffered");
        try {
            for (int partitions = 21; partitions <= 40; partitions++) {
                long rows = spark.range(0, 2_000, 1, 2).repartition(partitions).count();
                assertEquals(2_000, rows);
            }
        } finally {
            spark.conf().unset(SluiceSparkConf.STRATEGY);
        }
        // Each partition count started its own executor (some may already be retired: Spark's ContextCleaner removes
        // a shuffle once its dependency is garbage).
        assertTrue(manager().executorsStartedSoFar() >= startedBefore + 20,
                (manager().executorsStartedSoFar() - startedBefore) + " executors started");
        int after = spark.sparkContext().newShuffleId();
        for (int shuffleId = before; shuffleId < after; shuffleId++) {
            spark.sparkContext().cleaner().get().doCleanupShuffle(shuffleId, true);
        }
        for (int partitions = 21; partitions <= 40; partitions++) {
            String key = "buffered / " + partitions + " partitions";
            assertFalse(manager().startedExecutors().contains(key), key + " still runs");
        }
        assertTrue(manager().fallbacks().stream().noneMatch(f -> {
            int id = Integer.parseInt(f.substring("shuffle ".length(), f.indexOf(':')));
            return id >= before && id < after;
        }), manager().fallbacks().toString());
        // Other tests' executors may be retired meanwhile (the ContextCleaner) and none starts: at most as many.
        assertTrue(strategyThreads() <= threadsBefore, "strategy threads: " + threadsBefore + " before the 20 "
                + "shuffles, " + strategyThreads() + " after they were removed");
    }

    private static long strategyThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("sluice-")).count();
    }

    /**
     * What {@code spark.shuffle.useOldFetchProtocol=true} would do (map id = partition index): two attempts of one map
     * on one executor. Spark keeps the first attempt's output ({@code writeMetadataFileAndCommit}) and deletes the
     * second's, so the second's MapStatus must carry the kept lengths, those of the index, or reducers would skip
     * blocks by a size that is not there. The setting itself sends shuffles to Spark's writers, with the reason.
     */
    @Test
    void twoAttemptsOfOneMapGiveAMapStatusEqualToTheIndexSparkKept() throws IOException {
        ShuffleDependency<?, ?, ?> dependency = kryoShuffleOfFourPartitions();
        int shuffleId = dependency.shuffleId();
        long mapId = 987_654_321L;
        try {
            long[] first = attempt(dependency, mapId, 1_000).getPartitionLengths();
            org.apache.spark.shuffle.ShuffleWriter<Integer, Integer> second = attempt(dependency, mapId, 10);
            MapStatus status = second.stop(true).get();
            long[] index = indexLengths(shuffleId, mapId, 4);
            assertArrayEquals(first, index, "the index is not the first attempt's");
            assertArrayEquals(index, second.getPartitionLengths(), "the second attempt's lengths");
            for (int p = 0; p < 4; p++) {
                assertEquals(MapStatus$.MODULE$.decompressSize(MapStatus$.MODULE$.compressSize(index[p])),
                        status.getSizeForBlock(p), "MapStatus size of partition " + p);
            }
            assertEquals(index.length == 0 ? 0 : java.util.Arrays.stream(index).sum(),
                    Files.size(resolver().getDataFile(shuffleId, mapId).toPath()), "data file of the kept attempt");
        } finally {
            // What the block manager's endpoint calls on RemoveShuffle; the ContextCleaner would skip this shuffle,
            // which never reached the scheduler (MapOutputTracker.containsShuffle).
            manager().unregisterShuffle(shuffleId);
        }
        assertFalse(resolver().getDataFile(shuffleId, mapId).exists(), "unregistering left the map's data file");
        SparkConf old = new SparkConf(false).set("spark.shuffle.useOldFetchProtocol", "true");
        String why = Eligibility.whyNot(dependency, old, SluiceSparkConf.from(old));
        assertTrue(why != null && why.contains("useOldFetchProtocol"), String.valueOf(why));
    }

    @SuppressWarnings("unchecked")
    private org.apache.spark.shuffle.ShuffleWriter<Integer, Integer> attempt(ShuffleDependency<?, ?, ?> dependency,
                                                                            long mapId, int records) throws IOException {
        org.apache.spark.shuffle.ShuffleWriter<Integer, Integer> writer = manager().getWriter(
                dependency.shuffleHandle(), mapId, taskContext(mapId), new ShuffleWriteMetrics());
        assertTrue(writer instanceof StrategyShuffleWriter, writer.getClass().getName());
        List<scala.Product2<Integer, Integer>> input = new ArrayList<>();
        for (int i = 0; i < records; i++) {
            input.add(new Tuple2<>(i, i));
        }
        writer.write(scala.jdk.javaapi.CollectionConverters.asScala(input.iterator()));
        return writer;
    }

    /** A task's context outside a scheduled task: its own task memory manager, no local properties. */
    /** A shuffle of two rows into 4 partitions, with Kryo (a serializer Sluice takes), registered but not run. */
    private ShuffleDependency<?, ?, ?> kryoShuffleOfFourPartitions() {
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        @SuppressWarnings("unchecked")
        ShuffledRDD<Integer, Integer, Integer> shuffled = (ShuffledRDD<Integer, Integer, Integer>) sc
                .parallelize(List.of(1, 2), 1).mapToPair(i -> new Tuple2<>(i, i)).partitionBy(new HashPartitioner(4))
                .rdd();
        shuffled.setSerializer(new KryoSerializer(spark.sparkContext().getConf()));
        return (ShuffleDependency<?, ?, ?>) shuffled.dependencies().head();
    }

    private static org.apache.spark.TaskContextImpl taskContext(long attemptId) {
        org.apache.spark.memory.TaskMemoryManager memory =
                new org.apache.spark.memory.TaskMemoryManager(SparkEnv.get().memoryManager(), attemptId);
        return new org.apache.spark.TaskContextImpl(0, 0, 0, attemptId, 0, 1, memory, new java.util.Properties(),
                SparkEnv.get().metricsSystem(), org.apache.spark.TaskContextImpl$.MODULE$.$lessinit$greater$default$10(),
                org.apache.spark.TaskContextImpl$.MODULE$.$lessinit$greater$default$11(),
                org.apache.spark.TaskContextImpl$.MODULE$.$lessinit$greater$default$12());
    }

    private static IndexShuffleBlockResolver resolver() {
        return (IndexShuffleBlockResolver) manager().shuffleBlockResolver();
    }

    private static long[] indexLengths(int shuffleId, long mapId, int partitions) throws IOException {
        java.nio.ByteBuffer offsets = java.nio.ByteBuffer.wrap(Files.readAllBytes(
                resolver().getIndexFile(shuffleId, mapId, scala.Option.empty()).toPath()));
        long[] lengths = new long[partitions];
        long previous = offsets.getLong();
        for (int p = 0; p < partitions; p++) {
            long next = offsets.getLong();
            lengths[p] = next - previous;
            previous = next;
        }
        return lengths;
    }

    /** The session's bound is 40: a shuffle of 40 partitions goes through the strategy, one of 41 to Spark's writers. */
    @Test
    void aShuffleAtThePartitionBoundGoesThroughTheStrategyAndOnePastItFallsBackSayingWhy() {
        for (int partitions : new int[] {40, 41}) {
            int shuffle = spark.sparkContext().newShuffleId() + 1;
            long batches = manager().batchesCut();
            spark.conf().set(SluiceSparkConf.STRATEGY, "per-batch");
            try {
                assertEquals(5_000, spark.range(0, 5_000, 1, 2).repartition(partitions).count());
            } finally {
                spark.conf().unset(SluiceSparkConf.STRATEGY);
            }
            String fallback = manager().fallbacks().stream().filter(f -> f.startsWith("shuffle " + shuffle + ":"))
                    .findFirst().orElse(null);
            if (partitions == 40) {
                assertEquals(null, fallback, "the shuffle at the bound fell back");
                assertTrue(manager().batchesCut() > batches, "the shuffle at the bound cut no batch");
            } else {
                assertNotNull(fallback, "the shuffle past the bound did not fall back: " + manager().fallbacks());
                assertTrue(fallback.contains("41 partitions, more than spark.sluice.maxPartitions=40"), fallback);
            }
        }
    }

    @Test
    void anIneligibleShuffleGoesToSparksOwnWriterWithItsReason() {
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        List<Integer> numbers = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            numbers.add(i);
        }
        JavaPairRDD<Integer, Integer> pairs = sc.parallelize(numbers, 2).mapToPair(i -> new Tuple2<>(i % 10, 1));
        SluiceTasks tasks = new SluiceTasks();
        spark.sparkContext().addSparkListener(tasks);
        List<Tuple2<Integer, Integer>> counts;
        try {
            counts = pairs.reduceByKey(Integer::sum).collect();
            tasks.drain();
        } finally {
            spark.sparkContext().removeSparkListener(tasks);
        }
        assertEquals(10, counts.size());
        counts.forEach(c -> assertEquals(1000, c._2()));
        assertTrue(manager().fallbacks().stream().anyMatch(f -> f.contains("JavaSerializer does not support relocation")),
                manager().fallbacks().toString());
        // Each of the 2 map tasks told the driver it went to Spark's writer.
        assertEquals(java.util.Map.of(MapFigures.FALLBACKS, 2L), tasks.sums);
    }

    /**
     * Every map task tells the driver, in its Sluice accumulators, whether a strategy wrote it and what it cut: the
     * figures a listener on the driver reads in any master mode (spark-bench's check).
     */
    @Test
    void everyMapTaskReportsToTheDriverThatSluiceWroteItAndItsBatches() {
        SluiceTasks tasks = new SluiceTasks();
        spark.sparkContext().addSparkListener(tasks);
        try {
            assertEquals(stock, job("buffered"));
            tasks.drain();
        } finally {
            spark.sparkContext().removeSparkListener(tasks);
        }
        // Every shuffle map task of the job (the repartition's 2, the aggregation's 16, the sort's), none other.
        assertTrue(tasks.mapTasks.get() >= 18, tasks.mapTasks + " shuffle map tasks");
        assertEquals(tasks.mapTasks.get(), tasks.sums.get(MapFigures.MAP_OUTPUTS), tasks.sums.toString());
        assertTrue(tasks.sums.get(MapFigures.BATCHES) >= tasks.mapTasks.get(), tasks.sums.toString());
        assertEquals(0L, tasks.sums.getOrDefault(MapFigures.FALLBACKS, 0L), tasks.sums.toString());
        // Each map task's peak execution memory counts what Sluice held (the repartition's map tasks hold nothing
        // else), as Spark's UnsafeShuffleWriter adds its sorter's.
        assertEquals(tasks.mapTasks.get(), tasks.mapTasksWithPeak.get(), "shuffle map tasks with a peak execution "
                + "memory");
        // Spark's write time: the tasks' time blocked on the strategy, within each task's run.
        assertTrue(tasks.writeTime.get() > 0, "no shuffle write time");
        assertEquals(0, tasks.writeTimePastRunTime.get(), "map tasks whose write time exceeds their run time");
    }

    /** Sums of the Sluice accumulators' updates in the tasks that ended while it listened. */
    private final class SluiceTasks extends org.apache.spark.scheduler.SparkListener {
        final java.util.Map<String, Long> sums = new java.util.concurrent.ConcurrentSkipListMap<>();
        final java.util.concurrent.atomic.AtomicLong mapTasks = new java.util.concurrent.atomic.AtomicLong();
        final java.util.concurrent.atomic.AtomicLong mapTasksWithPeak = new java.util.concurrent.atomic.AtomicLong();
        final java.util.concurrent.atomic.AtomicLong writeTime = new java.util.concurrent.atomic.AtomicLong();
        final java.util.concurrent.atomic.AtomicLong writeTimePastRunTime = new java.util.concurrent.atomic.AtomicLong();

        @Override
        public void onTaskEnd(org.apache.spark.scheduler.SparkListenerTaskEnd end) {
            if (end.taskType().equals("ShuffleMapTask")) {
                mapTasks.incrementAndGet();
                if (end.taskMetrics() != null && end.taskMetrics().peakExecutionMemory() > 0) {
                    mapTasksWithPeak.incrementAndGet();
                }
                if (end.taskMetrics() != null) {
                    long writeNanos = end.taskMetrics().shuffleWriteMetrics().writeTime();
                    writeTime.addAndGet(writeNanos);
                    // Time blocked on the strategy is part of the task's run (Spark's milliseconds, rounded down).
                    if (writeNanos > (end.taskMetrics().executorRunTime() + 1) * 1_000_000L) {
                        writeTimePastRunTime.incrementAndGet();
                    }
                }
            }
            for (org.apache.spark.scheduler.AccumulableInfo info
                    : scala.jdk.javaapi.CollectionConverters.asJava(end.taskInfo().accumulables())) {
                String name = info.name().isDefined() ? info.name().get() : "";
                if (name.startsWith("sluice.") && info.update().isDefined() && (Long) info.update().get() != 0) {
                    sums.merge(name, (Long) info.update().get(), Long::sum);
                }
            }
        }

        void drain() {
            try {
                spark.sparkContext().listenerBus().waitUntilEmpty(60_000);
            } catch (java.util.concurrent.TimeoutException e) {
                throw new AssertionError("Spark's listener bus did not empty", e);
            }
        }
    }

    @Test
    void aFailingStrategyFailsTheTaskAndLeavesNoFile() throws IOException {
        Set<String> before = files(localDir);
        SparkException failure = assertThrows(SparkException.class, () -> job("test-failing-at-commit"));
        assertTrue(failure.getMessage().contains(FailingWriterFactory.MESSAGE), failure.getMessage());
        // The job fails as soon as one task does; Spark kills the other task and does not wait for it, so its abort
        // may still be removing files: wait (bounded) until no task runs.
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (runningTasks() > 0 && System.nanoTime() < deadline) {
            sleep(50);
        }
        Set<String> after = files(localDir);
        after.removeAll(before);
        assertEquals(Set.of(), after, "files the failed map tasks left");
    }

    /**
     * The session's limit (1 MiB for the JVM, every strategy executor together) is under what a map task's partials
     * reach: buffered spills partials to file and Spark reads stock's rows back.
     */
    @Test
    void aJobWhoseMapOutputsExceedTheMemoryLimitCompletesWithSpillsAndStocksRows() {
        long spilled = manager().counters().spilledBytes;
        assertEquals(stock, job("buffered"));
        assertTrue(manager().counters().spilledBytes > spilled, "no partial was spilled under a 1 MiB limit");
    }

    /**
     * Another memory consumer of the task asks for more than Spark has: Spark asks Sluice's consumer to spill, which
     * cuts the batch (its rows go to the strategy) and gives their heap back; the task ends holding none.
     */
    @Test
    void whenAnotherConsumerOfTheTaskNeedsMemorySluiceCutsItsBatchAndGivesTheHeapBack() throws IOException {
        ShuffleDependency<?, ?, ?> dependency = kryoShuffleOfFourPartitions();
        org.apache.spark.TaskContextImpl context = taskContext(555_555_555L);
        org.apache.spark.memory.TaskMemoryManager memory = context.taskMemoryManager();
        long forMemory = manager().batchesCutForMemory();
        try {
            @SuppressWarnings("unchecked")
            org.apache.spark.shuffle.ShuffleWriter<Integer, Integer> writer = manager().getWriter(
                    dependency.shuffleHandle(), 123_456_789L, context, new ShuffleWriteMetrics());
            java.util.Iterator<scala.Product2<Integer, Integer>> input = new java.util.Iterator<>() {
                private int i;

                @Override
                public boolean hasNext() {
                    return i < 20_000;
                }

                @Override
                public scala.Product2<Integer, Integer> next() {
                    if (++i == 10_000) {
                        // Half way, as an operator upstream in the same task would: ask for more than there is.
                        Hog hog = new Hog(memory);
                        assertTrue(memory.getMemoryConsumptionForThisTask() > 0, "Sluice holds no task memory");
                        hog.free(hog.acquireMemory(Long.MAX_VALUE / 4));
                    }
                    return new Tuple2<>(i, i);
                }
            };
            writer.write(scala.jdk.javaapi.CollectionConverters.asScala(input));
            writer.stop(true);
            assertEquals(0, memory.getMemoryConsumptionForThisTask(), "task memory held after the write");
            assertTrue(memory.getPeakOnHeapExecutionMemory() >= TaskRows.STEP, "peak on-heap task memory");
            assertEquals(forMemory + 1, manager().batchesCutForMemory(), "batches cut because Spark asked");
        } finally {
            manager().unregisterShuffle(dependency.shuffleId());
        }
    }

    /** A memory consumer that only asks and gives back. */
    private static final class Hog extends org.apache.spark.memory.MemoryConsumer {
        Hog(org.apache.spark.memory.TaskMemoryManager memory) {
            super(memory, org.apache.spark.memory.MemoryMode.ON_HEAP);
        }

        void free(long bytes) {
            freeMemory(bytes);
        }

        @Override
        public long spill(long size, org.apache.spark.memory.MemoryConsumer trigger) {
            return 0;
        }
    }

    @Test
    void idealIsRefusedInSparkWithTheReason() {
        SparkException failure = assertThrows(SparkException.class, () -> job("ideal"));
        assertTrue(failure.getMessage().contains("holds every record of its map tasks in memory"),
                failure.getMessage());
        InvalidParameterException refused = assertThrows(InvalidParameterException.class,
                () -> SluiceSparkConf.from(new SparkConf(false).set(SluiceSparkConf.STRATEGY, "ideal")));
        assertEquals(SluiceSparkConf.STRATEGY, refused.parameter());
    }

    @Test
    void theDefaultMemoryLimitIsHalfTheExecutorsMemoryOverhead() {
        long mib = 1024L * 1024;
        assertEquals(192 * mib, SluiceSparkConf.from(new SparkConf(false)).memoryLimit, "max(384m, 0.1 x 1g) / 2");
        assertEquals(512 * mib, SluiceSparkConf.from(new SparkConf(false).set("spark.executor.memory", "10g"))
                .memoryLimit, "0.1 x 10g / 2");
        assertEquals(1024 * mib, SluiceSparkConf.from(new SparkConf(false)
                .set("spark.executor.memoryOverhead", "2g")).memoryLimit);
        assertEquals(1024 * mib, SluiceSparkConf.from(new SparkConf(false)
                .set("spark.executor.memoryOverhead", "2048")).memoryLimit, "MiB without a unit, as Spark reads it");
        assertEquals(dev.sluice.spi.WriterConfig.UNLIMITED, SluiceSparkConf.from(new SparkConf(false)
                .set(SluiceSparkConf.MEMORY_LIMIT, "none")).memoryLimit);
    }

    @Test
    void asyncsSkipMergeIsRefusedWithTheReason() {
        SparkException failure = assertThrows(SparkException.class, () -> job("async:skipMerge=true"));
        assertTrue(failure.getMessage().contains("skipMerge=true")
                && failure.getMessage().contains("Spark's block resolver cannot serve"), failure.getMessage());
    }

    /**
     * Sluice writes through Spark's own instance of the shuffle IO plugin, initialized once per executor with the
     * plugin's settings as Spark passes them ({@code spark.shuffle.plugin.__config__.*}, prefix removed), and a shuffle
     * whose plugin gives no single-file map output writer goes to Spark's writers, saying why, instead of failing its
     * tasks.
     */
    @Test
    void thePluginGetsItsSettingsAsSparkPassesThemAndOneWithoutASingleFileWriterFallsBack() {
        job("per-batch"); // Sluice's instance exists once a Sluice map task ran
        assertEquals(1, RecordingShuffleDataIO.INITIALIZED.size(), "the plugin's executor initializations in this "
                + "application's one executor: " + RecordingShuffleDataIO.INITIALIZED);
        for (java.util.Map<String, String> settings : RecordingShuffleDataIO.INITIALIZED) {
            assertEquals(java.util.Map.of("sluice.test.marker", "42"), settings);
        }
        int shuffle = spark.sparkContext().newShuffleId() + 1;
        RecordingShuffleDataIO.NO_SINGLE_FILE.add(shuffle);
        spark.conf().set(SluiceSparkConf.STRATEGY, "buffered");
        try {
            assertEquals(7_000, spark.range(0, 7_000, 1, 2).repartition(5).count());
        } finally {
            spark.conf().unset(SluiceSparkConf.STRATEGY);
            RecordingShuffleDataIO.NO_SINGLE_FILE.remove(shuffle);
        }
        assertTrue(manager().fallbacks().stream().anyMatch(f -> f.startsWith("shuffle " + shuffle + ":")
                && f.contains("gives no single-file map output writer")), manager().fallbacks().toString());
    }

    @Test
    void badSettingsAreRefusedWithTheKeyAndEncryptionIsNotOne() {
        SparkConf encrypted = new SparkConf(false).set("spark.io.encryption.enabled", "true");
        assertTrue(SluiceSparkConf.from(encrypted).encryption, "written by the strategies (SparkChecksumsTest)");
        InvalidParameterException unknown = assertThrows(InvalidParameterException.class,
                () -> SluiceSparkConf.from(new SparkConf(false).set("spark.sluice.batchByte", "1m")));
        assertEquals("spark.sluice.batchByte", unknown.parameter());
        InvalidParameterException size = assertThrows(InvalidParameterException.class,
                () -> SluiceSparkConf.from(new SparkConf(false).set(SluiceSparkConf.BATCH_BYTES, "lots")));
        assertEquals(SluiceSparkConf.BATCH_BYTES, size.parameter());
        InvalidParameterException threads = assertThrows(InvalidParameterException.class,
                () -> SluiceSparkConf.from(new SparkConf(false).set(SluiceSparkConf.THREADS, "0")));
        assertEquals(SluiceSparkConf.THREADS, threads.parameter());
        InvalidParameterException bound = assertThrows(InvalidParameterException.class,
                () -> SluiceSparkConf.from(new SparkConf(false).set(SluiceSparkConf.MAX_PARTITIONS, "0")));
        assertEquals(SluiceSparkConf.MAX_PARTITIONS, bound.parameter());
        assertEquals(200, SluiceSparkConf.from(new SparkConf(false)).maxPartitions, "Spark's bypassMergeThreshold");
        assertEquals(150, SluiceSparkConf.from(new SparkConf(false)
                .set("spark.shuffle.sort.bypassMergeThreshold", "150")).maxPartitions);
        InvalidParameterException strategy = assertThrows(InvalidParameterException.class,
                () -> SluiceSparkConf.from(new SparkConf(false).set(SluiceSparkConf.STRATEGY, "no-such-writer")));
        assertEquals(SluiceSparkConf.STRATEGY, strategy.parameter());
    }

    private int runningTasks() {
        int running = 0;
        for (org.apache.spark.SparkExecutorInfo executor : spark.sparkContext().statusTracker().getExecutorInfos()) {
            running += executor.numRunningTasks();
        }
        return running;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Set<String> files(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(Files::isRegularFile).map(Path::toString).collect(Collectors.toCollection(TreeSet::new));
        }
    }
}
