package dev.sluice.report;

import dev.sluice.core.run.Metric;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The seed report's charts, drawn from its model: the three time figures with their errors as whiskers, the I/O per
 * MiB committed, and a paired run's improvements with their intervals; and the note under the time charts that says
 * which whiskers are drawn and which are not.
 */
final class SeedCharts {
    private final SeedRun run;

    SeedCharts(SeedRun run) {
        this.run = run;
    }

    /** The series of the time charts: the strategies, then the raw write where the run has it. */
    private List<String> series() {
        List<String> series = new ArrayList<>(run.strategies);
        if (run.sizes.stream().anyMatch(s -> run.raw(s).isPresent())) {
            series.add("raw write");
        }
        return series;
    }

    /** A time chart's bars in seconds: [0] values, [1] errors (NaN: one wave), series by sizes. */
    private double[][][] data(Figure figure) {
        List<String> series = series();
        double[][] values = new double[series.size()][run.sizes.size()];
        double[][] errors = new double[series.size()][run.sizes.size()];
        for (int i = 0; i < run.sizes.size(); i++) {
            for (int s = 0; s < series.size(); s++) {
                Optional<JmhResults.Row> r = s < run.strategies.size()
                        ? run.write(run.sizes.get(i), run.strategies.get(s)) : run.raw(run.sizes.get(i));
                values[s][i] = r.map(figure.value).orElse(Double.NaN) / 1000;
                errors[s][i] = r.map(figure::error).orElse(Double.NaN) / 1000;
            }
        }
        return new double[][][] {values, errors};
    }

    /** Every chart, into {@code dir}. */
    void draw(Path dir) throws IOException {
        for (Figure figure : Figure.TIMES) {
            double[][][] data = data(figure);
            Charts.bars(dir.resolve(figure.png), figure.title + " (lower is better)",
                    "seconds (whiskers: 99.9% error, where there is one)", run.sizes, series(), data[0], data[1]);
        }
        Charts.bars(dir.resolve("amplification.png"), "Bytes written per byte committed", "amplification", run.sizes,
                run.strategies, perMiB(Metric.IO_AMPLIFICATION, null), null);
        if (run.isPaired()) {
            run.paired.chart(dir.resolve("improvement.png"), Figure.MAPPER.runs);
        }
        Charts.bars(dir.resolve("syscalls.png"), "Write calls per MiB committed", "write calls / MiB", run.sizes,
                run.strategies, perMiB(Metric.IO_WRITE_CALLS_PER_MIB, null), null);
        Charts.bars(dir.resolve("disk.png"), "Bytes dirtied and not cancelled per MiB committed (reached or headed "
                + "for the disk)", "MiB / MiB", run.sizes, run.strategies,
                perMiB(Metric.PROC_WRITE_BYTES_PER_MIB, Metric.PROC_CANCELLED_WRITE_BYTES_PER_MIB), null);
    }

    /** A metric of every strategy at every size, less {@code minus} in MiB where given (bytes per MiB). */
    private double[][] perMiB(Metric metric, Metric minus) {
        double[][] values = new double[run.strategies.size()][run.sizes.size()];
        for (int i = 0; i < run.sizes.size(); i++) {
            for (int s = 0; s < run.strategies.size(); s++) {
                Optional<JmhResults.Row> r = run.write(run.sizes.get(i), run.strategies.get(s));
                values[s][i] = minus == null ? SeedRun.metric(r, metric)
                        : (SeedRun.metric(r, metric) - SeedRun.metric(r, minus)) / (1 << 20);
            }
        }
        return values;
    }

    /**
     * What the time charts' whiskers show: the bars with errors above 5% of their value, the bars with no error (one
     * wave), and the series drawn without whiskers because some of their bars have none.
     */
    String note() {
        List<String> flagged = new ArrayList<>();
        List<String> oneWave = new ArrayList<>();
        List<String> bare = new ArrayList<>();
        int withError = 0;
        List<String> series = series();
        for (Figure figure : Figure.TIMES) {
            double[][][] data = data(figure);
            boolean[] some = new boolean[series.size()];
            for (int i = 0; i < run.sizes.size(); i++) {
                for (int s = 0; s < series.size(); s++) {
                    double value = data[0][s][i];
                    double error = data[1][s][i];
                    if (Double.isNaN(value)) {
                        continue;
                    }
                    String bar = figure.name + " " + run.sizes.get(i) + " " + series.get(s);
                    if (Double.isNaN(error)) {
                        oneWave.add(bar);
                        continue;
                    }
                    some[s] = true;
                    withError++;
                    if (error / value > SeedReport.FLAG) {
                        flagged.add(String.format(Locale.ROOT, "%s (%.1f%%)", bar, 100 * error / value));
                    }
                }
            }
            for (int s = 0; s < series.size(); s++) {
                if (some[s] && !Charts.whiskers(data[0], data[1], s)) {
                    bare.add(figure.name + " " + series.get(s));
                }
            }
        }
        if (withError == 0) {
            return "No bar has a whisker: every configuration has one measured wave, so there is no error to draw.";
        }
        StringBuilder note = new StringBuilder(flagged.isEmpty() ? "Every error drawn is within 5% of its value."
                : "**Errors above 5% of the value:** " + String.join("; ", flagged) + ".");
        if (!oneWave.isEmpty()) {
            note.append(" No error (one wave): ").append(String.join("; ", oneWave)).append('.');
        }
        if (!bare.isEmpty()) {
            note.append(" Drawn without whiskers, as some of their bars have no error: ").append(String.join("; ", bare))
                    .append('.');
        }
        return note.toString();
    }
}
