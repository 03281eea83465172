package dev.sluice.spark.bench;

import dev.sluice.core.device.RunDevice;
import dev.sluice.core.device.TaskRateCache;
import dev.sluice.spark.SluiceSparkConf;
import dev.sluice.spi.InvalidParameterException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * seed's five sizes one after the other, one application each ({@link BenchOptions}, {@link Shape},
 * {@link BenchSession}); a run's figures are {@link SeedJob#once}'s, the summary {@link BenchSummary}'s, a balance's
 * task rate {@link SparkTaskRate}'s.
 */
public final class SparkBench {
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
     * own map task rate: measured on the native {@code localBase} before the device is made there, or read from the
     * cache ({@link SparkTaskRate}).
     */
    void run() throws Exception {
        // The device is checked before anything is made, at the shapes by serialized rows (the fewest rows), and
        // again once a task's rows are known.
        plan(options.shapes(RowSizing.SERIALIZED));
        Path work = options.work;
        Files.createDirectories(work);
        Path localBase = options.localDir != null ? options.localDir : work.resolve("local");
        Files.createDirectories(localBase);
        RowSizing sizing = options.sizeBy.equals(RowSizing.OUTPUT) ? OutputSizing.measure(options, localBase, log)
                : RowSizing.SERIALIZED;
        List<Shape> shapes = options.shapes(sizing);
        options.check(shapes);
        RunDevice.Planned planned = plan(shapes);
        BenchSummary summary = new BenchSummary(options.writers);
        log.printf(Locale.ROOT, "spark-bench: sizes %s, writers %s, %d warm-up + %d measured rounds each; a task's "
                + "rows sized by %s (%.2f bytes a row)%n", shapes.stream().map(Shape::size).toList(), options.writers,
                options.warmups, options.iterations, sizing.basis(), sizing.bytesPerRow());
        try (RunDevice device = planned.open(localBase, () -> new SparkTaskRate(options, sizing, log)
                .taskRate(localBase, TaskRateCache.standard()), log, true)) {
            for (Shape shape : shapes) {
                try (SparkSession spark = BenchSession.open(options, shape, device.directory(), log)) {
                    rounds(new SeedJob(spark, shape, work, options.partitions, options.localMode(), log),
                            device.describe(), summary);
                }
                summary.text(shape.size()).forEach(log::println);
            }
        }
        results.println(Json.line(summary.json(options.preset)));
        results.flush();
    }

    /** The run's device for {@code shapes}, checked against what they keep on it at once. */
    private RunDevice.Planned plan(List<Shape> shapes) {
        long plannedBytes = shapes.stream().mapToLong(Shape::plannedBytes).max().orElseThrow();
        return RunDevice.plan("--device", options.device, options.tasks, options.scale, plannedBytes);
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
                        BenchSession.lz4Jar());
                line.put("device", deviceFigures);
                results.println(Json.line(line));
                results.flush();
                if (!run.verified()) {
                    throw new IllegalStateException(writer + " wrote parquet that differs from the source rows: "
                            + line);
                }
                String notSluices = run.notAllSluices(job.shape().tasks());
                if (!writer.equals(SluiceSparkConf.STOCK) && !options.allowFallback && notSluices != null) {
                    throw new IllegalStateException(writer + "'s run: " + notSluices + ", so it measured Spark's "
                            + "writer under Sluice's name (--allow-fallback runs on)");
                }
                summary.add(job.shape(), run);
            }
        }
    }
}
