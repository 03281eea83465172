package dev.sluice.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.core.serde.ShuffleCodec;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A Markdown report in the shape of the seed report (RAPIDS shuffle-writer benchmark, PR-13724): its three tables
 * (query total time, mapper stage time, sum of mapper task durations) with the improvement over the baseline in %,
 * the crossover size, and what the seed could not show: why, from the counters (bytes dirtied against bytes cancelled
 * per MiB, write calls per MiB, the page cache's peak dirty data, memory), against the storage's raw-write reference.
 * Every figure is read from the JMH result with its own 99.9% error; every comparison gives Welch's t-test on the
 * measured waves and counts only where p < {@value #SIGNIFICANCE}. A figure whose error passes 5% of it is flagged.
 *
 * <p>The run is read once into its model ({@link SeedRun}: the rows, the baseline, the comparisons); the tables
 * ({@link SeedTables}, {@link DeviceModelTable}, {@link FloorTable}), the charts ({@link SeedCharts}) and the written
 * analysis ({@link SeedAnalysis}) render it, and this class lays them out in numbered sections ({@link Outline}).
 */
final class SeedReport {
    /** The precision aimed at, and the one past which a figure is flagged. */
    static final double TARGET = 0.03;
    static final double FLAG = 0.05;
    /** A difference counts where Welch's t-test on the measured waves gives a p-value below this. */
    static final double SIGNIFICANCE = 0.01;

    private static final String PAIRED = "paired";
    private static final String PRECISION = "precision";
    private static final String FLOOR = "floor";

    private final SeedRun run;
    private final Environment env;
    private final String resultName;
    /** Where the run's time went (its timing.tsv), or null where the report has none beside the result. */
    private RunTiming timing;

    SeedReport(List<JmhResults.Row> rows, Environment env, String resultName) {
        this(rows, env, resultName, null);
    }

    /** @param stops the run's stops.json (why each paired configuration stopped), or null */
    SeedReport(List<JmhResults.Row> rows, Environment env, String resultName, JsonNode stops) {
        this.run = new SeedRun(rows, stops);
        this.env = env;
        this.resultName = resultName;
    }

    /** The report with the run's timing, for the first screen's overhead line. */
    SeedReport withTiming(RunTiming timing) {
        this.timing = timing;
        return this;
    }

    /** Writes report.md and its charts into {@code dir}; returns the report's path. */
    Path write(Path dir) throws IOException {
        if (run.writes.isEmpty()) {
            throw new IOException("no ShuffleWriteBenchmark results in " + resultName + ": nothing to report");
        }
        Files.createDirectories(dir);
        new SeedCharts(run).draw(dir);
        Path report = dir.resolve("report.md");
        Files.writeString(report, markdown());
        return report;
    }

    private String markdown() {
        SeedTables tables = new SeedTables(run, env);
        DeviceModelTable device = new DeviceModelTable(run);
        FloorTable floor = new FloorTable(run);
        SeedAnalysis analysis = new SeedAnalysis(run);
        // A run with floors, or one of lz4-frame, which has none, gets the floor's section; any other run (those
        // before the floors were planned, or with --floors false) renders as it did.
        boolean floors = run.hasFloors() || ShuffleCodec.LZ4_FRAME.label().equals(run.codec())
                && run.sizes.stream().anyMatch(size -> run.raw(size).isPresent());
        Outline outline = new Outline();
        outline.chapter("Executive summary", out -> {
            String paired = run.isPaired() ? outline.number(PAIRED) : null;
            for (String line : analysis.summary(paired, outline.number(PRECISION))) {
                out.println("- " + line);
            }
            if (timing != null && run.isPaired()) {
                out.println("- " + timing.line());
            }
            if (floors) {
                floor.summary(outline.number(FLOOR)).ifPresent(line -> out.println("- " + line));
            }
            out.println();
        });
        outline.chapter("Test methodology", out -> { })
                .section("environment", "Environment", tables::environment)
                .section("configuration", "Configuration", tables::configuration)
                .section("configurations", "Configurations", tables::configurations);
        outline.chapter("Results", out -> { })
                .section("charts", "Charts", this::charts);
        for (Figure figure : Figure.TIMES) {
            outline.section(figure.name, figure.title + " (mean ± 99.9% error)", out -> tables.figure(out, figure));
        }
        if (run.isPaired()) {
            outline.section(PAIRED, "Paired comparisons (ratio [99% interval])",
                    out -> run.paired.write(out, Figure.MAPPER.runs, Figure.QUERY.runs));
        }
        outline.section(PRECISION, "Precision", tables::precision)
                .section("io", "I/O per map task and the page cache", tables::io)
                .section("raw", "Against the raw-write reference", tables::raw);
        if (device.hasDeviceModel()) {
            outline.section("device", "The emulated device against its model", device::write);
        }
        if (floors) {
            outline.section(FLOOR, "Against the floor", floor::write);
        }
        outline.chapter("Analysis", out -> { })
                .section("crossover", "Crossover", out -> {
                    out.println(analysis.crossover(Figure.MAPPER));
                    out.println();
                    out.println("By query total time: " + analysis.crossover(Figure.QUERY));
                    out.println();
                })
                .section("counters", "What the counters say", out -> {
                    for (String line : analysis.counters()) {
                        out.println("- " + line);
                    }
                    out.println();
                });
        StringWriter text = new StringWriter();
        PrintWriter out = new PrintWriter(text);
        out.println("# Shuffle writer benchmark report");
        out.println();
        out.printf("Results: [`%s`](%s). Generated by `scripts/report.sh` from the JMH result; every figure below is "
                + "read from it, with JMH's 99.9%% error.%n%n", resultName, resultName);
        out.println("---");
        out.println();
        outline.write(out);
        out.println("---");
        out.println();
        out.println("Page-cache writeback on this machine: dirty_background_ratio "
                + env.get("vm.dirty_background_ratio")
                + "%, dirty_ratio " + env.get("vm.dirty_ratio") + "% of the memory the page cache may use ("
                + env.get("memory") + " in all). Until dirty data passes the first, writes stay in memory.");
        out.flush();
        return text.toString();
    }

    private void charts(PrintWriter out) {
        for (Figure figure : Figure.TIMES) {
            out.println("![" + figure.caption + "](" + figure.png + ")");
            out.println();
        }
        out.println("Whiskers: the 99.9% error of each mean, from its measured waves (Student's t for their count, as "
                + "JMH computes it), drawn only where there is an error: one wave has none. " + new SeedCharts(run)
                .note());
        out.println();
        out.println("![Amplification](amplification.png) ![Write calls per MiB](syscalls.png) ![To disk](disk.png)");
        out.println();
    }
}
