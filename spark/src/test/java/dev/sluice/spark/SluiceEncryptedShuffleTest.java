package dev.sluice.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.apache.spark.SparkEnv;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * An application with {@code spark.io.encryption.enabled=true} and Sluice's manager: it starts (the setting is not
 * refused), its shuffles go to Spark's own writers, each with the reason, and Spark reads every row back.
 */
class SluiceEncryptedShuffleTest {
    @Test
    void anEncryptedShuffleFallsBackToSparksWritersAndSaysWhy() throws IOException {
        try (LocalSpark local = LocalSpark.start("encrypted", "local[2]",
                java.util.Map.of(SluiceSparkConf.STRATEGY, "buffered", "spark.io.encryption.enabled", "true"))) {
            SparkSession spark = local.spark;
            Row row = spark.range(0, 20_000, 1, 2).repartition(8).selectExpr("count(*)", "sum(id)").first();
            assertEquals(20_000L, row.getLong(0));
            assertEquals(20_000L * 19_999 / 2, row.getLong(1));
            SluiceShuffleManager manager = (SluiceShuffleManager) SparkEnv.get().shuffleManager();
            assertTrue(!manager.fallbacks().isEmpty() && manager.fallbacks().stream()
                    .allMatch(f -> f.contains("spark.io.encryption.enabled is true")), manager.fallbacks().toString());
            assertEquals(0, manager.batchesCut(), "a Sluice strategy wrote an encrypted shuffle");
        }
    }
}
