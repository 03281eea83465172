package dev.sluice.spark.bench;

import dev.sluice.spi.storage.Cleanup;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.spark.sql.SparkSession;

/**
 * What a row of the seed job counts for when a task is sized by its map output ({@link RowSizing#OUTPUT}): per-batch
 * writes the preset's small shape, sized by serialized rows, once, at this run's scale, tasks and partitions, in an
 * application of its own on native storage, its output verified; a row's share is the mapper stage's shuffle bytes
 * over its rows. A map output's bytes do not depend on the writer among Sluice's (per-batch and buffered wrote the
 * same 374,354,622 bytes at large in docs/runs/spark/seed-ssd-more) nor on timing, so one run is enough; they do
 * depend a little on the batch a partition's bytes are compressed in, which the seed's batches keep at one small
 * task's bytes at every size.
 */
final class OutputSizing {
    private OutputSizing() {
    }

    /** The shape the sizing run writes: the seed preset's small, by serialized rows, at this run's scale and tasks. */
    static Shape sizingShape(BenchOptions options) {
        return Shape.seed("small", options.scale, options.tasks, RowSizing.SERIALIZED);
    }

    /**
     * Measures a row's share of per-batch's map output on the storage at {@code localBase} (native: before any device
     * is made there), in directories of its own removed after, on success or failure.
     */
    static RowSizing measure(BenchOptions options, Path localBase, PrintStream log)
            throws IOException, InterruptedException {
        Shape shape = sizingShape(options);
        Path localDir = localBase.resolve("sizing");
        Path work = options.work.resolve("sizing");
        try {
            Files.createDirectories(localDir);
            RunFigures run;
            try (SparkSession spark = BenchSession.open(options, shape, localDir, log)) {
                run = new SeedJob(spark, shape, work, options.partitions, options.localMode(), log)
                        .once("per-batch", 0, true);
            }
            if (!run.verified()) {
                throw new IllegalStateException("per-batch wrote parquet that differs from the source rows while "
                        + "sizing the tasks by their map output");
            }
            String notSluices = run.notAllSluices(shape.tasks());
            if (notSluices != null) {
                // Spark's own writer's output would size Sluice's tasks by another stream's bytes.
                throw new IllegalStateException("sizing the tasks by their map output with per-batch: " + notSluices
                        + "; --size-by rows sizes them without it");
            }
            RowSizing sizing = RowSizing.output(run.shuffleBytes(), shape.rows(), String.format(Locale.ROOT,
                    "per-batch's map output at small x %s, %d tasks of %d rows (by serialized rows), %d partitions: "
                            + "%d bytes", shape.scale(), shape.tasks(), shape.rowsPerTask(), options.partitions,
                    run.shuffleBytes()));
            log.printf(Locale.ROOT, "spark-bench: sized by map output: per-batch wrote %s for %d rows, %.2f bytes a "
                    + "row (%.3f of its %d serialized bytes): a task's rows are the seed's bytes over that%n",
                    SeedJob.mib(run.shuffleBytes()), shape.rows(), sizing.bytesPerRow(),
                    sizing.bytesPerRow() / Shape.ROW_BYTES, Shape.ROW_BYTES);
            return sizing;
        } finally {
            BenchSession.forgetLocalDirs();
            Cleanup.deleteTree(localDir);
            Cleanup.deleteTree(work);
        }
    }
}
