package dev.sluice.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.spark.HashPartitioner;
import org.apache.spark.ShuffleDependency;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.SparkException;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.rdd.ShuffledRDD;
import org.apache.spark.serializer.KryoSerializer;
import org.apache.spark.serializer.SerializerInstance;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import scala.Tuple2;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

/**
 * A map task's hold on a strategy executor and its output, at the edges of a shuffle's life: a task that outlives its
 * shuffle's unregistration, and a task that fails with an {@code Error} Spark's writer processor does not catch. One
 * task at a time ({@code local[1]}), so that the second map task of a shuffle starts after the test acted on the first.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ShuffleLifecycleTest {
    /** Opened by the test: the map tasks of {@link #mapsOutlivingTheirShuffle} wait on it for their first row. */
    static final CountDownLatch GATE = new CountDownLatch(1);
    /** Counted down by the first map task once its writer exists (it pulls its first row). */
    static final CountDownLatch ENTERED = new CountDownLatch(1);

    private LocalSpark local;
    private SparkSession spark;

    @BeforeAll
    void startSpark() throws IOException {
        local = LocalSpark.start("lifecycle", "local[1]",
                java.util.Map.of(SluiceSparkConf.STRATEGY, "per-batch", SluiceSparkConf.THREADS, "2"));
        spark = local.spark;
    }

    @AfterAll
    void stopSpark() throws IOException {
        local.close();
    }

    /**
     * Spark unregisters a shuffle while its first map task writes (a stage cancelled, a cleaner ahead of a zombie
     * task): that task commits after, and the second starts after. Neither leaves a file, and the strategy executor
     * both leased retires once they end: no late lease makes the shuffle count as using it again.
     */
    @Test
    void mapsThatOutliveTheirShuffleLeaveNoFileAndTheExecutorRetires() throws Exception {
        ShuffledRDD<Integer, Integer, Integer> shuffled = shuffle(11, new KryoSerializer(conf()), true);
        @SuppressWarnings("unchecked")
        ShuffleDependency<Integer, Integer, Integer> dependency =
                (ShuffleDependency<Integer, Integer, Integer>) shuffled.dependencies().head();
        long started = manager().executorsStartedSoFar();
        var stage = spark.sparkContext().submitMapStage(dependency);
        assertTrue(ENTERED.await(60, TimeUnit.SECONDS), "the first map task did not start");
        assertTrue(manager().startedExecutors().contains("per-batch / 11 partitions"),
                "the first map task writes through Sluice: " + manager().startedExecutors() + manager().fallbacks());
        manager().unregisterShuffle(dependency.shuffleId());
        GATE.countDown();
        scala.concurrent.Await.result(stage, scala.concurrent.duration.Duration.create(120, TimeUnit.SECONDS));
        // The first task's executor retired when its lease came back (its shuffle gone); the second task, leasing
        // after the unregistration, started one again, which retired with its lease too.
        assertEquals(started + 2, manager().executorsStartedSoFar(), "executors the two map tasks started");
        assertEquals(List.of(), files(dependency.shuffleId()), "files of the unregistered shuffle");
        assertFalse(manager().startedExecutors().contains("per-batch / 11 partitions"),
                "the executor of the unregistered shuffle: " + manager().startedExecutors());
    }

    /**
     * The serializer fails with an {@code Error} once the writer exists, before it writes: Spark's
     * {@code ShuffleWriteProcessor} calls {@code stop(false)} for an {@code Exception} only. The task fails, and the
     * strategy executor retires when the shuffle is unregistered: the task's end gave its lease back.
     */
    @Test
    void anErrorBeforeTheWriterWritesGivesTheLeaseBackAtTheTasksEnd() {
        ShuffledRDD<Integer, Integer, Integer> shuffled = shuffle(7, new FailingSerializer(conf()), false);
        int shuffleId = ((ShuffleDependency<?, ?, ?>) shuffled.dependencies().head()).shuffleId();
        long started = manager().executorsStartedSoFar();
        SparkException failure = assertThrows(SparkException.class, shuffled::count);
        assertTrue(failure.getMessage().contains("fails on purpose"), failure.getMessage());
        assertEquals(started + 1, manager().executorsStartedSoFar(), "the map task's Sluice writer was made: "
                + manager().fallbacks());
        manager().unregisterShuffle(shuffleId);
        // The job fails with the first failed task; the other map task may still be ending, holding its lease until
        // its end: the executor retires then. Waited for, bounded: a lease never given back keeps it past the wait.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (manager().startedExecutors().contains("per-batch / 7 partitions") && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
        assertFalse(manager().startedExecutors().contains("per-batch / 7 partitions"),
                "the executor of the failed shuffle: " + manager().startedExecutors());
    }

    /** 2 map tasks of 2,000 pairs into {@code partitions} partitions; gated: the maps wait for {@link #GATE}. */
    private ShuffledRDD<Integer, Integer, Integer> shuffle(int partitions, KryoSerializer serializer, boolean gated) {
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        JavaPairRDD<Integer, Integer> pairs = jsc.parallelize(IntStream.range(0, 4_000).boxed().toList(), 2)
                .mapToPair(i -> {
                    if (gated) {
                        ENTERED.countDown();
                        if (!GATE.await(60, TimeUnit.SECONDS)) {
                            throw new IllegalStateException("the test did not open the gate");
                        }
                    }
                    return new Tuple2<>(i, i);
                });
        ClassTag<Integer> tag = ClassTag$.MODULE$.apply(Integer.class);
        ShuffledRDD<Integer, Integer, Integer> shuffled =
                new ShuffledRDD<>(pairs.rdd(), new HashPartitioner(partitions), tag, tag, tag);
        shuffled.setSerializer(serializer);
        return shuffled;
    }

    private SparkConf conf() {
        return spark.sparkContext().getConf();
    }

    private static SluiceShuffleManager manager() {
        return (SluiceShuffleManager) SparkEnv.get().shuffleManager();
    }

    /** Spark's and Sluice's files of {@code shuffleId} under the local dir. */
    private List<String> files(int shuffleId) throws IOException {
        try (Stream<Path> walk = Files.walk(local.localDir())) {
            return walk.filter(Files::isRegularFile).map(p -> p.getFileName().toString())
                    .filter(name -> name.startsWith("shuffle_" + shuffleId + "_")).sorted()
                    .collect(Collectors.toList());
        }
    }

    /** Kryo, relocatable (eligible for Sluice), whose instances fail with an {@code Error} inside a task. */
    public static final class FailingSerializer extends KryoSerializer {
        public FailingSerializer(SparkConf conf) {
            super(conf);
        }

        @Override
        public boolean supportsRelocationOfSerializedObjects() {
            return true;
        }

        @Override
        public SerializerInstance newInstance() {
            if (TaskContext.get() != null) {
                throw new AssertionError("the map task's serializer fails on purpose");
            }
            return super.newInstance();
        }
    }
}
