package dev.sluice.spark.bench;

import dev.sluice.core.device.TaskRate;
import dev.sluice.core.device.TaskRateCache;
import dev.sluice.core.strategy.ShuffleWriters;
import dev.sluice.spark.SluiceShuffleManager;
import dev.sluice.spi.storage.Cleanup;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.SparkSession;

/**
 * Spark's own map task rate, which a balance sets its device relative to: per-batch at the seed preset's small, this
 * run's scale and tasks, measured in Spark on native storage, or read from the cache where it holds one for this
 * machine, build and configuration.
 */
final class SparkTaskRate {
    /** Measured runs of a task-rate calibration (after one warm-up). */
    static final int CALIBRATION_RUNS = 3;

    private final BenchOptions options;
    private final RowSizing sizing;
    private final PrintStream log;

    /** The task rate of {@code options}' run, its calibration's rows counted as {@code sizing} says. */
    SparkTaskRate(BenchOptions options, RowSizing sizing, PrintStream log) {
        this.options = options;
        this.sizing = sizing;
        this.log = log;
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
                BenchSession.forgetLocalDirs();
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
        Map<String, String> key = new LinkedHashMap<>(TaskRateCache.machine());
        key.put("harness", "spark-bench: the seed job in real Spark, per-batch (" + SparkBench.class.getName() + ")");
        key.put("harness.code", TaskRateCache.code(List.of(SparkTaskRate.class, SluiceShuffleManager.class,
                ShuffleWriters.find("calibration", "per-batch").getClass())));
        key.put("harness.spark", org.apache.spark.package$.MODULE$.SPARK_VERSION() + ", lz4-java "
                + BenchSession.lz4Jar());
        key.put("run.master", options.master);
        key.put("run.tasks", String.valueOf(shape.tasks()));
        key.put("run.scale", String.valueOf(shape.scale()));
        key.put("run.shape", shape.size() + ", " + shape.rowsPerTask() + " rows per task (by " + sizing.basis()
                + "), batchBytes " + shape.batchBytes());
        key.put("run.partitions", String.valueOf(options.partitions));
        key.put("run.threads", String.valueOf(options.threads));
        key.put("run.memoryLimit", options.memoryLimit);
        key.put("run.conf", new TreeMap<>(options.conf).toString());
        key.put("run.storage", TaskRateCache.storage(localBase));
        return key;
    }

    /** The shape a task-rate calibration runs: the seed preset's small, at this run's scale, tasks and sizing. */
    Shape calibrationShape() {
        return Shape.seed("small", options.scale, options.tasks, sizing);
    }

    /**
     * The map tasks' rate on storage at {@code localDir} (native: before a device is opened there), in shuffle bytes
     * per second of a task: {@link #calibrationShape} in an application of its own, then
     * {@link #measureTaskRate(SparkSession, Shape, Path, int, boolean, PrintStream)}.
     */
    double measureTaskRate(Path localDir) throws IOException, InterruptedException {
        Shape shape = calibrationShape();
        Files.createDirectories(localDir);
        try (SparkSession spark = BenchSession.open(options, shape, localDir, log)) {
            return measureTaskRate(spark, shape, options.work.resolve("calibration"), options.partitions,
                    options.localMode(), log);
        }
    }

    /**
     * Runs per-batch at {@code shape} in {@code spark} (a session built for it: {@link BenchSession#open}), 1 warm-up
     * and 3 measured runs, each output verified, and returns {@link #taskRate} of the measured ones. Prints no JSON.
     */
    static double measureTaskRate(SparkSession spark, Shape shape, Path work, int partitions, boolean local,
                                  PrintStream log) throws IOException, InterruptedException {
        SeedJob job = new SeedJob(spark, shape, work, partitions, local, log);
        List<RunFigures> measured = new ArrayList<>();
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
}
