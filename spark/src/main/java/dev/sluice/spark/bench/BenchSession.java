package dev.sluice.spark.bench;

import dev.sluice.spark.SluiceShuffleManager;
import dev.sluice.spark.SluiceSparkConf;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.spark.sql.SparkSession;

/** The Spark application spark-bench runs a shape in, and the lz4-java its result lines name. */
final class BenchSession {
    private BenchSession() {
    }

    /**
     * A Spark session for {@code shape} with its local directory in {@code localDir}: Sluice's manager at the shape's
     * batch size, Spark's own writers unless a query says otherwise. Stopping it (closing) ends the application.
     */
    static SparkSession open(BenchOptions options, Shape shape, Path localDir, PrintStream log) {
        log.printf(Locale.ROOT, "spark-bench: %s x %.3f: %d map tasks x %d rows (sized by %s; %s serialized each, %d "
                + "bytes a row), batchBytes %s%s, repartition(%d), master %s; lz4-java: %s%n", shape.size(),
                shape.scale(), shape.tasks(), shape.rowsPerTask(), shape.sizing().basis(),
                SeedJob.mib(shape.taskBytes()), Shape.ROW_BYTES,
                shape.batchBytes(), shape.batchesPerTask() == null ? "" : " (" + shape.batchesPerTask() + " per task)",
                options.partitions, options.master, lz4Jar());
        SparkSession.Builder builder = SparkSession.builder().appName("sluice-spark-bench " + shape.size())
                .master(options.master)
                .config("spark.shuffle.manager", SluiceShuffleManager.class.getName())
                .config("spark.local.dir", localDir.toString())
                .config("spark.ui.enabled", "false")
                // Queries other than the measured one (the checks) run on Spark's own writers.
                .config(SluiceSparkConf.STRATEGY, SluiceSparkConf.STOCK)
                .config(SluiceSparkConf.BATCH_BYTES, shape.batchBytes())
                .config(SluiceSparkConf.THREADS, String.valueOf(options.threads))
                // --partitions asks for the strategies at that count: the manager's bound (Spark's bypass threshold,
                // 200 by default) would otherwise send a larger one to Spark's writers.
                .config(SluiceSparkConf.MAX_PARTITIONS, String.valueOf(Math.max(options.partitions, 200)));
        if (!options.memoryLimit.equals(BenchOptions.DEFAULT_MEMORY_LIMIT)) {
            builder.config(SluiceSparkConf.MEMORY_LIMIT, options.memoryLimit);
        }
        if (options.sparkHome != null) {
            // Executors in their own JVMs load the manager from Sluice's jars, lz4-java first (scripts/spark-bench
            // passes the class path).
            String jars = System.getProperty("sluice.executorClassPath", "");
            if (jars.isEmpty()) {
                throw new IllegalStateException("-Dsluice.executorClassPath is missing: run through scripts/spark-bench");
            }
            builder.config("spark.executor.extraClassPath", jars)
                    .config("spark.executor.extraJavaOptions", System.getProperty("sluice.executorJavaOptions", ""));
        }
        options.conf.forEach(builder::config);
        SparkSession spark = builder.getOrCreate();
        Long memory = executionMemory(options);
        if (memory != null) {
            log.printf(Locale.ROOT, "spark-bench: Spark's unified memory (execution and storage, the map tasks' "
                    + "pool): %s on the heap, %s off it%n", SeedJob.mib(memory),
                    SeedJob.mib(org.apache.spark.SparkEnv.get().memoryManager().maxOffHeapStorageMemory()));
        }
        return spark;
    }

    /**
     * After an application whose local directory is removed: Spark keeps a JVM's local root directories from its
     * first context ({@code Utils.localRootDirs}) and would make the next application's temporary directories there,
     * making the removed directory again.
     */
    static void forgetLocalDirs() {
        org.apache.spark.util.Utils$.MODULE$.clearLocalRootDirs();
    }

    /**
     * The heap Spark's memory manager shares between execution and storage, as it stands when nothing is cached
     * ({@code maxOnHeapStorageMemory} of a manager with no execution memory in use: {@code UnifiedMemoryManager}'s
     * maximum), where the executor is this JVM (local mode); else null.
     */
    static Long executionMemory(BenchOptions options) {
        if (!options.master.startsWith("local[") && !options.master.equals("local")) {
            return null;
        }
        return org.apache.spark.SparkEnv.get().memoryManager().maxOnHeapStorageMemory();
    }

    /** The jar {@code net.jpountz.lz4} classes come from, as group:artifact:version where the path says it. */
    static String lz4Jar() {
        java.security.CodeSource source = net.jpountz.lz4.LZ4Factory.class.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            return "unknown";
        }
        String path = source.getLocation().getPath();
        if (path.contains("/at/yawk/lz4/")) {
            return "at.yawk.lz4:lz4-java:" + Path.of(path).getParent().getFileName();
        }
        if (path.contains("/org/lz4/")) {
            return "org.lz4:lz4-java:" + Path.of(path).getParent().getFileName();
        }
        return Path.of(path).getFileName().toString();
    }
}
