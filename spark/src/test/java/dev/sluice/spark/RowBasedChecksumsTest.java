package dev.sluice.spark;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.MapOutputTrackerMaster;
import org.apache.spark.ShuffleStatus;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;
import org.apache.spark.scheduler.MapStatus;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Row-based checksums ({@code spark.sql.shuffle.orderIndependentChecksum.enabled}, on by default from Spark 4.2, set
 * here for 4.1 too): a SQL shuffle written by a Sluice strategy goes through it, not to Spark's writer, and every map
 * output's {@code MapStatus.checksumValue} is the one Spark's own writer gives for the same rows, also when a map task
 * failed once and ran again under {@code enableFullRetryOnMismatch}, where the scheduler compares the attempts.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RowBasedChecksumsTest {
    private static final int MAPS = 3;
    private LocalSpark local;
    private SparkSession spark;

    @BeforeAll
    void startSpark() throws IOException {
        // local[2,2]: a task may fail once and run again.
        local = LocalSpark.start("row-checksums", "local[2,2]", java.util.Map.of(
                SluiceSparkConf.BATCH_BYTES, "64k",
                "spark.sql.shuffle.orderIndependentChecksum.enabled", "true",
                "spark.sql.shuffle.orderIndependentChecksum.enableFullRetryOnMismatch", "true",
                "spark.sql.adaptive.enabled", "false",
                "spark.sql.shuffle.partitions", "4"));
        spark = local.spark;
        // Fails map task 0's first attempt once it has passed some rows to the writer.
        spark.udf().register("failFirstAttempt", (UDF1<Long, Long>) id -> {
            TaskContext task = TaskContext.get();
            if (task.partitionId() == 0 && task.attemptNumber() == 0 && id == 5_000L) {
                throw new IllegalStateException("map task 0's first attempt fails on purpose");
            }
            return id;
        }, DataTypes.LongType);
    }

    @AfterAll
    void stopSpark() throws IOException {
        local.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"per-batch", "buffered", "async"})
    void everyMapOutputsChecksumIsStockSparksForTheSameRowsAlsoAfterARetry(String strategy) {
        Shuffled stock = run("stock", false);
        assertEquals(MAPS, stock.checksums.size());
        for (long checksum : stock.checksums) {
            assertNotEquals(0L, checksum, "stock Spark computed no row-based checksum: " + stock.checksums);
        }
        SluiceShuffleManager manager = (SluiceShuffleManager) SparkEnv.get().shuffleManager();
        long batches = manager.batchesCut();
        Shuffled sluice = run(strategy, false);
        assertTrue(manager.batchesCut() > batches, "no Sluice batch was cut: " + manager.fallbacks());
        assertEquals(stock.rows, sluice.rows);
        assertEquals(stock.checksums, sluice.checksums, strategy + "'s checksums against stock's");
        Shuffled retried = run(strategy, true);
        assertEquals(stock.rows, retried.rows);
        assertEquals(stock.checksums, retried.checksums, strategy + "'s checksums after a retry against stock's");
        assertEquals(0, retried.mismatches, "map indices whose attempts' checksums differed");
    }

    /** One shuffle's rows read back (count, sum and a hash per partition) and its map outputs' checksums. */
    private record Shuffled(List<Row> rows, List<Long> checksums, int mismatches) {}

    private Shuffled run(String strategy, boolean failOnce) {
        spark.conf().set(SluiceSparkConf.STRATEGY, strategy);
        try {
            int shuffle = spark.sparkContext().newShuffleId() + 1;
            String column = failOnce ? "failFirstAttempt(id)" : "id";
            List<Row> rows = spark.range(0, 60_000, 1, MAPS)
                    .selectExpr(column + " as id", "concat('row-', cast(id * 7 as string)) as s")
                    .repartition(16, col("id"))
                    .selectExpr("spark_partition_id() as p", "id", "hash(s) as h")
                    .groupBy("p").agg(org.apache.spark.sql.functions.count("*"),
                            org.apache.spark.sql.functions.sum("id"), org.apache.spark.sql.functions.sum("h"))
                    .orderBy("p").collectAsList();
            // The repartition's shuffle: of this query's (the aggregation's and the sort's follow), the one with a
            // map output per input partition.
            MapOutputTrackerMaster tracker = (MapOutputTrackerMaster) SparkEnv.get().mapOutputTracker();
            ShuffleStatus status = null;
            for (int id = shuffle; status == null && id < shuffle + 4; id++) {
                scala.Option<ShuffleStatus> registered = tracker.shuffleStatuses().get(id);
                if (registered.isDefined() && registered.get().mapStatuses().length == MAPS) {
                    status = registered.get();
                }
            }
            assertNotNull(status, "no shuffle of " + MAPS + " maps from shuffle " + shuffle);
            List<Long> checksums = new ArrayList<>();
            for (MapStatus map : status.mapStatuses()) {
                checksums.add(map.checksumValue());
            }
            return new Shuffled(rows, checksums, status.checksumMismatchIndices().size());
        } finally {
            spark.conf().unset(SluiceSparkConf.STRATEGY);
        }
    }
}
