package dev.sluice.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.hash;
import static org.apache.spark.sql.functions.spark_partition_id;
import static org.apache.spark.sql.functions.sum;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.spi.InvalidParameterException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.scheduler.AccumulableInfo;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * What a strategy holds for a map task is memory of the task in Spark's memory manager ({@link StrategyMemory}): in
 * an application whose execution memory is a fraction of the shuffle, the consolidating strategies' partials go to
 * file when Spark grants no more or asks for memory back, the job completes with stock's rows, and the spills reach
 * Spark's task metrics and Sluice's accumulators; with {@code spark.sluice.taskMemory=false} the same job keeps its
 * partials in memory (the executor's default limit, 192 MiB, is far above them) and spills nothing.
 */
class SparkTaskMemoryTest {
    /** Spark's unified memory: (24 MiB, nothing reserved) x spark.memory.fraction 0.6 = 14.4 MiB for two tasks. */
    private static final Map<String, String> SMALL_MEMORY = Map.of("spark.testing.memory", String.valueOf(24L << 20),
            "spark.testing.reservedMemory", "0", SluiceSparkConf.BATCH_BYTES, "2m", SluiceSparkConf.THREADS, "2",
            "spark.sql.shuffle.partitions", "4", "spark.sql.adaptive.enabled", "false");

    @Test
    void aShuffleSeveralTimesTheTasksMemorySpillsPartialsWhereSparkSaysAndReportsIt() throws IOException {
        for (boolean taskMemory : new boolean[] {true, false}) {
            Map<String, String> conf = new java.util.HashMap<>(SMALL_MEMORY);
            conf.put(SluiceSparkConf.TASK_MEMORY, String.valueOf(taskMemory));
            try (LocalSpark local = LocalSpark.start("task-memory", "local[2]", conf)) {
                SparkSession spark = local.spark;
                List<Row> stock = job(spark, "stock");
                SluiceShuffleManager manager = (SluiceShuffleManager) SparkEnv.get().shuffleManager();
                // Partials of about a batch (upstream's first buffers, 128 and 32 MiB, are each more than a task
                // gets here: every partial would be a file from its start).
                // async's predictive sizing sends some partials to file whatever the memory: only buffered's
                // partials all stay in memory outside Spark's.
                for (String strategy : taskMemory ? List.of("buffered:initialPartial=1m", "async:initialPartial=1m")
                        : List.of("buffered:initialPartial=1m")) {
                    MapTasks tasks = new MapTasks();
                    spark.sparkContext().addSparkListener(tasks);
                    try {
                        assertEquals(stock, job(spark, strategy), strategy);
                        drain(spark);
                    } finally {
                        spark.sparkContext().removeSparkListener(tasks);
                    }
                    String what = strategy + ", taskMemory=" + taskMemory + ": ";
                    assertTrue(tasks.sluiceOutputs.get() >= 2, what + tasks.sluiceOutputs + " map outputs by Sluice");
                    assertEquals(tasks.diskBytesSpilled.get(), tasks.sluiceSpilled.get(), what + "Spark's task "
                            + "metrics and Sluice's accumulator disagree on the bytes spilled");
                    assertEquals(tasks.memoryBytesSpilled.get(), tasks.sluiceSpilled.get(), what);
                    if (taskMemory) {
                        // More shuffle output than the 14.4 MiB both tasks get together: some partials go to file,
                        // others stay in memory.
                        assertTrue(tasks.sluiceSpilled.get() > 0, what + "no partial spilled");
                        assertTrue(tasks.sluiceSpilled.get() < tasks.bytesWritten.get(), what + "every partial spilled");
                    } else {
                        assertEquals(0, tasks.sluiceSpilled.get(), what + "spilled outside Spark's memory");
                    }
                }
                assertEquals(List.of(), manager.fallbacks());
            }
        }
    }

    @Test
    void taskMemoryIsOnByDefaultAndAnythingButTrueOrFalseIsRefusedWithTheKey() {
        assertTrue(SluiceSparkConf.from(new SparkConf(false)).taskMemory);
        assertFalse(SluiceSparkConf.from(new SparkConf(false).set(SluiceSparkConf.TASK_MEMORY, "false")).taskMemory);
        InvalidParameterException e = assertThrows(InvalidParameterException.class,
                () -> SluiceSparkConf.from(new SparkConf(false).set(SluiceSparkConf.TASK_MEMORY, "yes")));
        assertEquals(SluiceSparkConf.TASK_MEMORY, e.parameter());
        assertTrue(e.getMessage().contains("true or false"), e.getMessage());
    }

    private static void drain(SparkSession spark) {
        try {
            spark.sparkContext().listenerBus().waitUntilEmpty(60_000);
        } catch (TimeoutException e) {
            throw new AssertionError("Spark's listener bus did not empty", e);
        }
    }

    /** The shuffle map tasks' spills, as Spark's task metrics and Sluice's accumulators report them. */
    private static final class MapTasks extends SparkListener {
        final AtomicLong sluiceOutputs = new AtomicLong();
        final AtomicLong sluiceSpilled = new AtomicLong();
        final AtomicLong diskBytesSpilled = new AtomicLong();
        final AtomicLong memoryBytesSpilled = new AtomicLong();
        final AtomicLong bytesWritten = new AtomicLong();

        @Override
        public void onTaskEnd(SparkListenerTaskEnd end) {
            if (!end.taskType().equals("ShuffleMapTask") || end.taskMetrics() == null) {
                return;
            }
            diskBytesSpilled.addAndGet(end.taskMetrics().diskBytesSpilled());
            bytesWritten.addAndGet(end.taskMetrics().shuffleWriteMetrics().bytesWritten());
            memoryBytesSpilled.addAndGet(end.taskMetrics().memoryBytesSpilled());
            for (AccumulableInfo info : scala.jdk.javaapi.CollectionConverters.asJava(end.taskInfo().accumulables())) {
                String name = info.name().isDefined() ? info.name().get() : "";
                long update = info.update().isDefined() ? (Long) info.update().get() : 0;
                if (name.equals(MapFigures.MAP_OUTPUTS)) {
                    sluiceOutputs.addAndGet(update);
                } else if (name.equals(MapFigures.SPILLED_BYTES)) {
                    sluiceSpilled.addAndGet(update);
                }
            }
        }
    }

    /**
     * Rows of hex digests, which lz4 barely compresses, repartitioned by two map tasks into more shuffle output than
     * Spark's execution memory here, checked per partition.
     */
    private static List<Row> job(SparkSession spark, String strategy) {
        spark.conf().set(SluiceSparkConf.STRATEGY, strategy);
        try {
            return new ArrayList<>(spark.range(0, 120_000, 1, 2)
                    .selectExpr("id", "sha2(cast(id as string), 256) as s", "sha2(cast(id * 3 as string), 512) as t")
                    // By a column: round-robin would sort the rows before the shuffle (sortBeforeRepartition), and
                    // that sorter's spills are not the strategy's.
                    .repartition(8, col("id"))
                    .withColumn("p", spark_partition_id())
                    .groupBy("p").agg(count("*"), sum("id"), sum(hash(col("s"), col("t")))).orderBy("p")
                    .collectAsList());
        } finally {
            spark.conf().unset(SluiceSparkConf.STRATEGY);
        }
    }
}
