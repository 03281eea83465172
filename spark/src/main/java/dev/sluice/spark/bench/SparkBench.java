package dev.sluice.spark.bench;

import dev.sluice.core.device.RunDevice;
import dev.sluice.core.device.TaskRate;
import dev.sluice.core.device.TaskRateCache;
import dev.sluice.core.strategy.ShuffleWriters;
import dev.sluice.spark.SluiceShuffleManager;
import dev.sluice.spark.SluiceSparkConf;
import dev.sluice.spi.Bytes;
import dev.sluice.spi.InvalidParameterException;
import dev.sluice.spi.storage.Cleanup;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/**
 * The seed job in real Spark, once per writer: {@code spark.range(...)} of four 8-byte columns, {@code repartition(200)},
 * {@code write.parquet(...)}, with the map tasks' shuffle bytes sized like the seed's, under Spark's own manager
 * ({@code stock}) and any Sluice strategy, in one application (the strategy is a session setting per query, so every
 * writer runs in the same JVMs), rounds rotating which writer goes first. Prints one JSON line per writer and
 * iteration on stdout, then one summary line; progress and the summary in words on stderr. The seed preset runs the
 * seed's five sizes one after the other, one application each ({@link BenchOptions}, {@link Shape}); a run's figures
 * are {@link SeedJob#once}'s, the summary {@link BenchSummary}'s.
 */
public final class SparkBench {
    /** The seed report's shuffle bytes per mapper task, by configuration (its table in section 2.3). */
    static final Map<String, Long> SEED_TASK_BYTES = new LinkedHashMap<>();

    static {
        SEED_TASK_BYTES.put("small", 402_000_000L);
        SEED_TASK_BYTES.put("medium", 803_000_000L);
        SEED_TASK_BYTES.put("large", 1_180_000_000L);
        SEED_TASK_BYTES.put("xlarge", 1_570_000_000L);
        SEED_TASK_BYTES.put("xxlarge", 1_950_000_000L);
    }

    /**
     * Bytes of one row as the shuffle serializes it: {@code UnsafeRowSerializer} writes a 4-byte size, then the row:
     * an 8-byte null bitset and four 8-byte fields.
     */
    static final int ROW_BYTES = 4 + 8 + 4 * 8;

    /** Measured runs of a task-rate calibration (after one warm-up). */
    static final int CALIBRATION_RUNS = 3;

    private final BenchOptions options;
    private final PrintStream results;
    private final PrintStream log;

    SparkBench(BenchOptions options, PrintStream results, PrintStream log) {
        this.options = options;
        this.results = results;
        this.log = log;
    }

    public static void main(String[] args) {
        int status = launch(args, System.out, System.err);
        if (status != 0) {
            System.exit(status);
        }
    }

    /**
     * Runs the command line {@code args}: results on {@code out}, progress on {@code err}. Returns the exit status:
     * 0, 2 for a bad command line (the message names the option, its value and what is allowed), 1 for a failure.
     */
    static int launch(String[] args, PrintStream out, PrintStream err) {
        BenchOptions options;
        try {
            options = BenchOptions.parse(args);
        } catch (InvalidParameterException e) {
            err.println("spark-bench: " + e.getMessage());
            err.println("(spark-bench --help lists the options)");
            return 2;
        }
        if (options.help) {
            out.print(BenchOptions.HELP);
            return 0;
        }
        try {
            new SparkBench(options, out, err).run();
            return 0;
        } catch (InvalidParameterException e) {
            err.println("spark-bench: " + e.getMessage());
            return 2;
        } catch (Exception e) {
            err.println("spark-bench: failed: " + e);
            e.printStackTrace(err);
            return 1;
        }
    }

    /**
     * Every shape (the preset's sizes, or the one size given) on the local directory's storage, one Spark application
     * per shape, then the summary. A balance ({@code seed-ssd}, or a spec with {@code produce=}) first needs Spark's
     * own map task rate: measured on the native {@code localBase} before the device is made there ({@link #taskRate}),
     * or read from the cache.
     */
    void run() throws Exception {
        Path work = options.work;
        Files.createDirectories(work);
        List<Shape> shapes = options.shapes();
        long plannedBytes = shapes.stream().mapToLong(Shape::plannedBytes).max().orElseThrow();
        String refusal = RunDevice.refusal(options.device, plannedBytes);
        if (refusal != null) {
            throw new InvalidParameterException("--device", options.device.text(), refusal);
        }
        Path localBase = options.localDir != null ? options.localDir : work.resolve("local");
        Files.createDirectories(localBase);
        BenchSummary summary = new BenchSummary(options.writers);
        log.printf(Locale.ROOT, "spark-bench: sizes %s, writers %s, %d warm-up + %d measured rounds each%n",
                shapes.stream().map(Shape::size).toList(), options.writers, options.warmups, options.iterations);
        TaskRate rate = options.device.needsTaskRate() ? taskRate(localBase, TaskRateCache.standard()) : null;
        try (RunDevice device = RunDevice.open(options.device, localBase, options.tasks, options.scale, rate,
                plannedBytes, log, true)) {
            for (Shape shape : shapes) {
                try (SparkSession spark = session(shape, device.directory())) {
                    rounds(new SeedJob(spark, shape, work, options.partitions, options.localMode(), log),
                            device.describe(), summary);
                }
                summary.text(shape.size()).forEach(log::println);
            }
        }
        results.println(Json.line(summary.json(options.preset)));
        results.flush();
    }

    /**
     * A Spark session for {@code shape} with its local directory in {@code localDir}: Sluice's manager at the shape's
     * batch size, Spark's own writers unless a query says otherwise. Stopping it (closing) ends the application.
     */
    SparkSession session(Shape shape, Path localDir) {
        log.printf(Locale.ROOT, "spark-bench: %s x %.3f: %d map tasks x %d rows (%s serialized each, %d bytes a row), "
                + "batchBytes %s%s, repartition(%d), master %s; lz4-java: %s%n", shape.size(), shape.scale(),
                shape.tasks(), shape.rowsPerTask(), mib(shape.taskBytes()), ROW_BYTES, shape.batchBytes(),
                shape.batchesPerTask() == null ? "" : " (" + shape.batchesPerTask() + " per task)",
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
                .config(SluiceSparkConf.MEMORY_LIMIT, options.memoryLimit)
                // --partitions asks for the strategies at that count: the manager's bound (Spark's bypass threshold,
                // 200 by default) would otherwise send a larger one to Spark's writers.
                .config(SluiceSparkConf.MAX_PARTITIONS, String.valueOf(Math.max(options.partitions, 200)));
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
        return builder.getOrCreate();
    }

    /** The warm-up and measured rounds of one shape, every writer once a round, each round one writer later. */
    private void rounds(SeedJob job, Map<String, Object> deviceFigures, BenchSummary summary)
            throws IOException, InterruptedException {
        int total = options.warmups + options.iterations;
        for (int i = 0; i < total; i++) {
            boolean warmup = i < options.warmups;
            for (int w = 0; w < options.writers.size(); w++) {
                String writer = options.writers.get((w + i) % options.writers.size());
                RunFigures run = job.once(writer, i, warmup);
                Map<String, Object> line = run.line(job.shape(), options.preset, options.partitions, options.master,
                        lz4Jar());
                line.put("device", deviceFigures);
                results.println(Json.line(line));
                results.flush();
                if (!run.verified()) {
                    throw new IllegalStateException(writer + " wrote parquet that differs from the source rows: "
                            + line);
                }
                summary.add(job.shape(), run);
            }
        }
    }

    /**
     * Spark's map task rate for this run's configuration: from {@code cache} when it holds one for this machine, build
     * and configuration, else measured on {@code localBase} (native storage: the device is not made yet), in a
     * directory of its own removed after, and kept.
     */
    TaskRate taskRate(Path localBase, TaskRateCache cache) throws Exception {
        return cache.findOrMeasure(taskRateKey(localBase), () -> {
            Shape shape = calibrationShape();
            Path dir = localBase.resolve("task-rate");
            double bytesPerSecond;
            try {
                bytesPerSecond = measureTaskRate(dir);
            } finally {
                Cleanup.deleteTree(dir);
                Cleanup.deleteTree(options.work.resolve("calibration"));
            }
            return new TaskRate(bytesPerSecond, String.format(Locale.ROOT, "measured in Spark: per-batch at %s x %s, %d "
                    + "tasks, master %s, shuffle bytes per task over the mapper stage, median of %d", shape.size(),
                    shape.scale(), shape.tasks(), options.master, CALIBRATION_RUNS));
        }, log, "spark-bench");
    }

    /** What Spark's task rate depends on: the machine, the build, Spark and the run's configuration and storage. */
    Map<String, String> taskRateKey(Path localBase) throws IOException {
        Shape shape = calibrationShape();
        Map<String, String> key = new java.util.LinkedHashMap<>(TaskRateCache.machine());
        key.put("harness", "spark-bench: the seed job in real Spark, per-batch (" + SparkBench.class.getName() + ")");
        key.put("harness.code", TaskRateCache.code(List.of(SparkBench.class, SluiceShuffleManager.class,
                ShuffleWriters.find("calibration", "per-batch").getClass())));
        key.put("harness.spark", org.apache.spark.package$.MODULE$.SPARK_VERSION() + ", lz4-java " + lz4Jar());
        key.put("run.master", options.master);
        key.put("run.tasks", String.valueOf(shape.tasks()));
        key.put("run.scale", String.valueOf(shape.scale()));
        key.put("run.shape", shape.size() + ", " + shape.rowsPerTask() + " rows per task, batchBytes "
                + shape.batchBytes());
        key.put("run.partitions", String.valueOf(options.partitions));
        key.put("run.threads", String.valueOf(options.threads));
        key.put("run.memoryLimit", options.memoryLimit);
        key.put("run.conf", new java.util.TreeMap<>(options.conf).toString());
        key.put("run.storage", TaskRateCache.storage(localBase));
        return key;
    }

    /** The shape a task-rate calibration runs: the seed preset's small, at this run's scale and tasks. */
    Shape calibrationShape() {
        return Shape.seed("small", options.scale, options.tasks);
    }

    /**
     * The map tasks' rate on storage at {@code localDir} (native: before a device is opened there), in shuffle bytes
     * per second of a task: {@link #calibrationShape} in an application of its own, then
     * {@link #measureTaskRate(SparkSession, Shape, Path, int, boolean, PrintStream)}.
     */
    double measureTaskRate(Path localDir) throws IOException, InterruptedException {
        Shape shape = calibrationShape();
        Files.createDirectories(localDir);
        try (SparkSession spark = session(shape, localDir)) {
            return measureTaskRate(spark, shape, options.work.resolve("calibration"), options.partitions,
                    options.localMode(), log);
        }
    }

    /**
     * Runs per-batch at {@code shape} in {@code spark} (a session built for it: {@link #session}), 1 warm-up and 3
     * measured runs, each output verified, and returns {@link #taskRate} of the measured ones. Prints no JSON.
     */
    static double measureTaskRate(SparkSession spark, Shape shape, Path work, int partitions, boolean local,
                                  PrintStream log) throws IOException, InterruptedException {
        SeedJob job = new SeedJob(spark, shape, work, partitions, local, log);
        List<RunFigures> measured = new java.util.ArrayList<>();
        for (int i = 0; i < 1 + CALIBRATION_RUNS; i++) {
            RunFigures run = job.once("per-batch", i, i == 0);
            if (!run.verified()) {
                throw new IllegalStateException("per-batch wrote parquet that differs from the source rows while "
                        + "measuring the task rate");
            }
            if (!run.warmup()) {
                measured.add(run);
            }
        }
        double rate = taskRate(measured, shape.tasks());
        log.printf(Locale.ROOT, "spark-bench: task rate %.1f MB/s per map task (per-batch, %s x %s, median of %d)%n",
                rate / 1e6, shape.size(), shape.scale(), measured.size());
        return rate;
    }

    /**
     * The median over {@code runs} of shuffle bytes per map task over mapper-stage seconds.
     *
     * @throws IllegalArgumentException without runs, or with a run whose mapper stage or shuffle took no time/bytes
     */
    static double taskRate(List<RunFigures> runs, int tasks) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("no runs: a task rate needs at least one");
        }
        double[] rates = new double[runs.size()];
        for (int i = 0; i < rates.length; i++) {
            RunFigures run = runs.get(i);
            if (run.mapperStageMillis() <= 0 || run.shuffleBytes() <= 0) {
                throw new IllegalArgumentException("a run with mapper stage " + run.mapperStageMillis() + " ms and "
                        + run.shuffleBytes() + " shuffle bytes has no rate");
            }
            rates[i] = run.shuffleBytes() / (double) tasks / (run.mapperStageMillis() / 1000.0);
        }
        return TaskRate.median(rates);
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

    static void sync() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("sync").inheritIO().start();
        if (p.waitFor() != 0) {
            throw new IOException("sync failed with exit status " + p.exitValue());
        }
    }

    static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (double) Bytes.MiB);
    }
}
