package dev.sluice.spark;

import dev.sluice.spi.storage.Cleanup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/**
 * A test's own Spark application in this JVM: Sluice's manager, a local directory of its own, no UI, and the test's
 * settings. Closing stops it and removes the directory.
 */
final class LocalSpark implements AutoCloseable {
    final SparkSession spark;
    private final Path localDir;

    private LocalSpark(SparkSession spark, Path localDir) {
        this.spark = spark;
        this.localDir = localDir;
    }

    /** {@code master} as Spark takes it ({@code local[2]}, {@code local[2,2]}: a task may fail once). */
    static LocalSpark start(String name, String master, Map<String, String> settings) throws IOException {
        Path localDir = Files.createTempDirectory("sluice-spark-" + name);
        SparkSession.Builder builder = SparkSession.builder().master(master).appName("sluice-" + name + "-test")
                .config("spark.shuffle.manager", SluiceShuffleManager.class.getName())
                .config("spark.local.dir", localDir.toString())
                .config("spark.ui.enabled", "false");
        settings.forEach(builder::config);
        try {
            return new LocalSpark(builder.getOrCreate(), localDir);
        } catch (RuntimeException | Error e) {
            Cleanup.deleteTree(localDir);
            throw e;
        }
    }

    /** The application's local directory (spark.local.dir). */
    Path localDir() {
        return localDir;
    }

    @Override
    public void close() throws IOException {
        try {
            spark.stop();
        } finally {
            // Spark keeps a JVM's local root dirs from the first SparkContext (Utils.localRootDirs): forget them, or
            // the next test class's context makes its temporary dirs in this deleted one, and leaves it behind.
            org.apache.spark.util.Utils$.MODULE$.clearLocalRootDirs();
            Cleanup.deleteTree(localDir);
        }
    }
}
