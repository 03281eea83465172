package dev.sluice.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.spi.storage.Cleanup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
        Path localDir = Files.createTempDirectory("sluice-spark-encrypted");
        SparkSession spark = SparkSession.builder().master("local[2]").appName("sluice-encrypted-test")
                .config("spark.shuffle.manager", SluiceShuffleManager.class.getName())
                .config(SluiceSparkConf.STRATEGY, "buffered")
                .config("spark.io.encryption.enabled", "true")
                .config("spark.local.dir", localDir.toString())
                .config("spark.ui.enabled", "false")
                .getOrCreate();
        try {
            Row row = spark.range(0, 20_000, 1, 2).repartition(8).selectExpr("count(*)", "sum(id)").first();
            assertEquals(20_000L, row.getLong(0));
            assertEquals(20_000L * 19_999 / 2, row.getLong(1));
            SluiceShuffleManager manager = (SluiceShuffleManager) SparkEnv.get().shuffleManager();
            assertTrue(!manager.fallbacks().isEmpty() && manager.fallbacks().stream()
                    .allMatch(f -> f.contains("spark.io.encryption.enabled is true")), manager.fallbacks().toString());
            assertEquals(0, manager.batchesCut(), "a Sluice strategy wrote an encrypted shuffle");
        } finally {
            spark.stop();
            // Spark keeps a JVM's local root dirs from the first SparkContext (Utils.localRootDirs): forget them, or
            // the next test class's context makes its temporary dirs in this deleted one, and leaves it behind.
            org.apache.spark.util.Utils$.MODULE$.clearLocalRootDirs();
            Cleanup.deleteTree(localDir);
        }
    }
}
