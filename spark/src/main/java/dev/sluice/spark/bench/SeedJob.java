package dev.sluice.spark.bench;

import dev.sluice.spark.SluiceShuffleManager;
import dev.sluice.spark.SluiceSparkConf;
import dev.sluice.spi.Bytes;
import dev.sluice.spi.storage.Cleanup;
import dev.sluice.spi.storage.IoSnapshot;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.spark.SparkEnv;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The seed job of one {@link Shape} in one Spark session: the source rows and their fingerprint, made once, and
 * {@link #once}, one measured write under one writer with its figures. The session must have been built for the
 * shape (its batch size is the manager's setting).
 */
final class SeedJob {
    private final SparkSession spark;
    private final Shape shape;
    private final Path out;
    private final int partitions;
    private final boolean local;
    private final PrintStream log;
    private final StageFigures stages = new StageFigures();
    private final SqlExecutions executions = new SqlExecutions();
    private final Dataset<Row> source;
    private final Row expected;

    /**
     * Registers the listeners and fingerprints the source rows (a query of its own, on Spark's writers).
     * {@code local}: the executors run in this JVM, so Sluice's counters and memory are readable here.
     */
    SeedJob(SparkSession spark, Shape shape, Path work, int partitions, boolean local, PrintStream log) {
        this.spark = spark;
        this.shape = shape;
        this.out = work.resolve("parquet");
        this.partitions = partitions;
        this.local = local;
        this.log = log;
        spark.sparkContext().addSparkListener(stages);
        spark.sparkContext().addSparkListener(executions);
        source = spark.range(0, shape.rows(), 1, shape.tasks())
                .selectExpr("id", "xxhash64(id) as a", "rand(7) as r", "id % 1000 as k");
        expected = fingerprint(source);
        log.printf(Locale.ROOT, "spark-bench: %s: reference from the source rows: %d rows, checksum %s%n",
                shape.size(), expected.getLong(0), expected.get(1));
    }

    Shape shape() {
        return shape;
    }

    /**
     * One write of the seed job under {@code writer}, its output checked against the source rows; every shuffle is
     * removed afterwards. Before it, outside the figures: the last output removed, dirty pages synced, the listener
     * bus emptied and {@code System.gc()}.
     */
    RunFigures once(String writer, int iteration, boolean warmup) throws IOException, InterruptedException {
        Cleanup.deleteTree(out);
        sync();
        spark.conf().set(SluiceSparkConf.STRATEGY, writer);
        drain();
        System.gc();
        stages.reset();
        executions.reset();
        SluiceShuffleManager manager = local ? (SluiceShuffleManager) SparkEnv.get().shuffleManager() : null;
        IoSnapshot before = manager == null ? null : manager.counters();
        long batchesBefore = manager == null ? 0 : manager.batchesCut();
        MemoryPeaks.Peaks peaks;
        long driverNanos;
        try (MemoryPeaks sampler = new MemoryPeaks(manager == null ? null : new MemoryPeaks.OffHeap() {
            @Override
            public long allocated() {
                return manager.offHeapBytes();
            }

            @Override
            public long peak() {
                return manager.offHeapPeakBytes();
            }
        })) {
            long start = System.nanoTime();
            source.repartition(partitions).write().parquet(out.toString());
            driverNanos = System.nanoTime() - start;
            peaks = sampler.stop();
        }
        drain();
        IoSnapshot io = manager == null ? null : manager.counters().since(before);
        Long batches = manager == null ? null : manager.batchesCut() - batchesBefore;
        java.util.List<String> fallbacks = manager == null ? null : manager.fallbacks(stages.shuffles());
        StageFigures.Stage mapper = stages.mapper();
        StageFigures.Stage reducer = stages.reducer();
        SqlExecutions.Execution query = SqlExecutions.measured(executions.executions());
        spark.conf().unset(SluiceSparkConf.STRATEGY);
        Row written = fingerprint(spark.read().parquet(out.toString()));
        boolean verified = written.getLong(0) == expected.getLong(0) && written.get(1).equals(expected.get(1));
        RunFigures run = new RunFigures(writer, iteration, warmup, Math.round(query.millis()),
                driverNanos / 1_000_000, mapper.stageMillis, mapper.taskMillis, reducer.stageMillis, mapper.gcMillis,
                reducer.gcMillis, local ? peaks.heapBytes() : null, peaks.offHeapBytes(), mapper.shuffleBytes,
                mapper.shuffleRecords, mapper.shuffleWriteNanos / 1_000_000, written.getLong(0), verified, batches, io,
                fallbacks, mapper.sluiceTasks(), mapper.spilledBytes, mapper.peakExecutionBytes);
        log.printf(Locale.ROOT, "spark-bench: %-7s %-10s %-18s query %6d ms (driver %6d), mapper stage %6d ms, "
                        + "tasks %7d ms, gc %4d/%4d ms, heap peak %s, off-heap peak %s, shuffle %s%s, %s%n",
                shape.size(), (warmup ? "warm-up " : "iter ") + iteration, writer, run.queryMillis(),
                run.driverMillis(), run.mapperStageMillis(), run.sumTaskMillis(), run.mapperGcMillis(),
                run.reducerGcMillis(), run.peakHeapBytes() == null ? "n/a" : mib(run.peakHeapBytes()),
                run.peakOffHeapBytes() == null ? "n/a" : mib(run.peakOffHeapBytes()),
                mib(run.shuffleBytes()),
                batches == null || batches == 0 ? "" : String.format(Locale.ROOT, " in %d batches", batches),
                verified ? "verified" : "NOT VERIFIED");
        if (batches != null && batches > 0 && shape.batchesPerTask() != null
                && batches != (long) shape.batchesPerTask() * shape.tasks()) {
            log.printf(Locale.ROOT, "spark-bench: %s: %s cut %d batches in %d tasks, not the %d per task that "
                    + "batchBytes %s was chosen for: the serializers' buffers (8 KiB per partition) are counted when "
                    + "flushed, which at this scale is a large share of a batch%n", shape.size(), writer, batches,
                    shape.tasks(), shape.batchesPerTask(), shape.batchBytes());
        }
        cleanShuffles();
        return run;
    }

    /**
     * Removes every shuffle of the query just run, in every executor, before the next writer starts: each run starts
     * with the same local directories.
     */
    private void cleanShuffles() {
        drain();
        scala.Option<org.apache.spark.ContextCleaner> cleaner = spark.sparkContext().cleaner();
        for (int id : stages.takeShuffles()) {
            if (cleaner.isDefined()) {
                cleaner.get().doCleanupShuffle(id, true);
            }
        }
    }

    /** Waits until Spark's listener bus has delivered every event so far (two minutes at most). */
    private void drain() {
        try {
            spark.sparkContext().listenerBus().waitUntilEmpty(120_000);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("Spark's listener bus did not empty within 2 minutes", e);
        }
    }

    /** Row count and an order-insensitive checksum: the sum of every row's xxhash64, as an exact decimal. */
    static Row fingerprint(Dataset<Row> rows) {
        return rows.selectExpr("count(*)", "sum(cast(xxhash64(id, a, r, k) as decimal(38, 0)))").first();
    }

    /** Writes dirty pages out (the sync command), so that a run does not pay for the one before it. */
    private static void sync() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("sync").inheritIO().start();
        if (p.waitFor() != 0) {
            throw new IOException("sync failed with exit status " + p.exitValue());
        }
    }

    static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (double) Bytes.MiB);
    }
}
