package dev.sluice.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.hash;
import static org.apache.spark.sql.functions.spark_partition_id;
import static org.apache.spark.sql.functions.sum;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import org.apache.spark.SparkEnv;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Spark's other codecs and codec settings, each an application of its own: every strategy writes its shuffles (none
 * falls back), through Spark's own codec streams, and Spark's reader gives stock Spark's rows. (lzf and lz4 at other
 * block sizes take the same path; {@link PieceCompressionTest} reads their pieces back through Spark's codec.)
 */
class SparkCodecsTest {
    @ParameterizedTest
    @ValueSource(strings = {"spark.io.compression.codec=snappy",
        "spark.io.compression.codec=zstd;spark.io.compression.zstd.level=3", "spark.shuffle.compress=false"})
    void everyStrategyWritesTheShuffleAndSparkReadsStocksRows(String settings) throws IOException {
        // Several batches per map task: a partition is a chain of pieces compressed apart.
        java.util.Map<String, String> conf = new java.util.HashMap<>(java.util.Map.of(SluiceSparkConf.BATCH_BYTES,
                "128k", SluiceSparkConf.THREADS, "2", "spark.sql.shuffle.partitions", "4"));
        for (String setting : settings.split(";")) {
            int eq = setting.indexOf('=');
            conf.put(setting.substring(0, eq), setting.substring(eq + 1));
        }
        try (LocalSpark local = LocalSpark.start("codecs", "local[2]", conf)) {
            SparkSession spark = local.spark;
            List<Row> stock = job(spark, "stock");
            SluiceShuffleManager manager = (SluiceShuffleManager) SparkEnv.get().shuffleManager();
            for (String strategy : List.of("per-batch", "buffered", "async")) {
                long batches = manager.batchesCut();
                assertEquals(stock, job(spark, strategy), settings + ", " + strategy);
                assertTrue(manager.batchesCut() - batches >= 4, settings + ", " + strategy + ": "
                        + (manager.batchesCut() - batches) + " batches cut");
            }
            assertEquals(List.of(), manager.fallbacks(), settings);
        }
    }

    private static List<Row> job(SparkSession spark, String strategy) {
        spark.conf().set(SluiceSparkConf.STRATEGY, strategy);
        try {
            return spark.range(0, 100_000, 1, 2)
                    .selectExpr("id", "concat('row-', cast(id * 7 as string)) as s")
                    .repartition(16)
                    .withColumn("p", spark_partition_id())
                    .groupBy("p").agg(count("*"), sum("id"), sum(hash(col("s")))).orderBy("p").collectAsList();
        } finally {
            spark.conf().unset(SluiceSparkConf.STRATEGY);
        }
    }
}
