package dev.sluice.report;

import dev.sluice.core.run.Metric;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The seed report's written analysis, from its model: the executive summary, the crossover (from which size on a
 * strategy is faster than the baseline), and what the counters add to the times.
 */
final class SeedAnalysis {
    private final SeedRun run;

    SeedAnalysis(SeedRun run) {
        this.run = run;
    }

    /**
     * The summary's lines; {@code pairedSection} (null where the run is not paired) and {@code precisionSection} are
     * the numbers of the sections it points to.
     */
    List<String> summary(String pairedSection, String precisionSection) {
        List<String> lines = new ArrayList<>();
        String largest = run.largest();
        lines.add("The question (the seed report's): does consolidation beat the per-batch writer, from which size on, "
                + "and why. Here: " + crossover(Figure.MAPPER));
        if (run.isPaired()) {
            // How many of the questions the run answered, first; the undecided ones as a nested list under the count.
            lines.add(String.join("\n  - ", run.paired.decisions(Figure.MAPPER.runs)));
        }
        for (String s : run.others()) {
            run.improvement(Figure.MAPPER, largest, s).ifPresent(v -> lines.add(String.format(Locale.ROOT,
                    "At %s, %s's mapper stage time is %s against %s (%s); its query total time %s.", largest, s,
                    v.text(), run.baseline, !v.tested()
                            ? (v.paired != null ? "no interval: one pair" : "no Welch's test: one wave")
                            : v.significant() ? "significant" : "not significant",
                    run.improvement(Figure.QUERY, largest, s).map(Improvement::text).orElse("n/a"))));
        }
        if (run.isPaired()) {
            lines.add(run.paired.summary(Figure.MAPPER.runs, pairedSection));
        }
        int within = 0;
        int flagged = 0;
        int total = 0;
        int unmeasured = 0;
        double worst = 0;
        for (JmhResults.Row r : run.measured()) {
            total++;
            if (Figure.MAPPER.waves(r) < 2) {
                unmeasured++;
                continue;
            }
            double rel = Figure.MAPPER.error(r) / Figure.MAPPER.value.apply(r);
            within += rel <= SeedReport.TARGET ? 1 : 0;
            flagged += rel > SeedReport.FLAG ? 1 : 0;
            worst = Math.max(worst, rel);
        }
        lines.add(unmeasured == total ? "Precision: no error: one measured wave per configuration, so neither an "
                + "error nor Welch's test can be stated."
                : String.format(Locale.ROOT, "Precision: %d of %d configurations within 3%% (the 99.9%% error of the "
                + "mean, from %s measured waves), %d past 5%%; the worst %.1f%%%s. Section " + precisionSection
                + " shows every wave.",
                within, total - unmeasured, run.measuredWaves(), flagged, 100 * worst,
                unmeasured > 0 ? "; " + unmeasured + " with one wave and no error" : "")
                + run.noiseFloor().filter(r -> r.samples >= 2).map(r -> String.format(Locale.ROOT, " The same work "
                        + "in every iteration, with no I/O, measured on this machine in the same run: %.1f%%.",
                        100 * r.relativeError())).orElse(""));
        return lines;
    }

    /**
     * The smallest size from which a strategy is faster than the baseline with significance (the paired interval
     * above 0, or Welch's t-test, p < {@value SeedReport#SIGNIFICANCE}), at that size and every larger one.
     */
    String crossover(Figure figure) {
        String baseline = run.baseline;
        if (!run.strategies.contains(baseline) || run.strategies.size() < 2) {
            return "No crossover to find: the baseline (" + baseline + ") or a second strategy is missing.";
        }
        StringBuilder out = new StringBuilder();
        for (String s : run.others()) {
            String from = null;
            for (int i = run.sizes.size() - 1; i >= 0; i--) {
                if (!run.improvement(figure, run.sizes.get(i), s).map(Improvement::faster).orElse(false)) {
                    break;
                }
                from = run.sizes.get(i);
            }
            if (out.length() > 0) {
                out.append(' ');
            }
            Optional<Improvement> atLargest = run.improvement(figure, run.largest(), s);
            boolean untested = atLargest.map(v -> !v.tested()).orElse(false);
            boolean paired = atLargest.map(v -> v.paired != null).orElse(false);
            // Paired: the whole 99% interval of the improvement above 0; unpaired: Welch's p < 0.01.
            String faster = paired ? "faster than %s with 99%% confidence" : "significantly faster than %s";
            String by = paired ? " (paired intervals)" : "";
            if (from == null && untested) {
                out.append(paired ? String.format("%s against %s: no interval at the largest size (one pair), so no "
                        + "crossover can be found in this run.", s, baseline)
                        : String.format("%s against %s: no Welch's test at the largest size (one wave: no spread to "
                        + "test), so no crossover can be found in this run.", s, baseline));
            } else if (from == null) {
                out.append(String.format("%s is not " + faster + " at the largest size%s, so it has no crossover in "
                        + "this run.", s, baseline, by));
            } else if (from.equals(run.sizes.get(0))) {
                out.append(String.format("%s is " + faster + " at every size%s, from %s up: no crossover inside "
                        + "this range.", s, baseline, by, from));
            } else {
                out.append(String.format("%s is " + faster + " from %s up (the crossover%s), and not at the size "
                        + "below.", s, baseline, from, paired ? "; paired intervals" : ""));
            }
        }
        return out.toString();
    }

    /**
     * What the counters add to the times: per strategy, the ranges over the sizes of bytes dirtied, cancelled, write
     * calls and memory, a strategy that writes no file said as such; then, per size, the storage's own time for one
     * copy of the committed bytes against each wave, which bounds what writing fewer bytes can save.
     */
    List<String> counters() {
        List<String> lines = new ArrayList<>();
        for (String s : run.strategies) {
            List<JmhResults.Row> rs = new ArrayList<>();
            run.sizes.forEach(size -> run.write(size, s).ifPresent(rs::add));
            if (rs.isEmpty()) {
                continue;
            }
            if (rs.stream().allMatch(r -> SeedRun.metric(Optional.of(r), Metric.IO_BYTES_WRITTEN) == 0)) {
                lines.add(String.format(Locale.ROOT, "%s writes no file: its map output stays in memory and readers are "
                        + "served from it, so its waves are compression and copies alone; peak memory per task %s.", s,
                        range(rs, Metric.IO_PEAK_BUFFERED_BYTES, 1 << 20, "%.0f MiB")));
                continue;
            }
            lines.add(String.format(Locale.ROOT, "%s: %s MiB dirtied per MiB committed, of which %s cancelled by deletes "
                            + "before writeback; %s write calls per MiB; peak Dirty %s; peak memory per task %s.", s,
                    range(rs, Metric.PROC_WRITE_BYTES_PER_MIB, 1 << 20, "%.2f"),
                    range(rs, Metric.PROC_CANCELLED_WRITE_BYTES_PER_MIB, 1 << 20, "%.2f"),
                    range(rs, Metric.IO_WRITE_CALLS_PER_MIB, 1, "%.1f"),
                    range(rs, Metric.DIRTY_PEAK_BYTES, 1 << 20, "%.0f MiB"),
                    range(rs, Metric.IO_PEAK_BUFFERED_BYTES, 1 << 20, "%.0f MiB")));
        }
        for (String size : run.sizes) {
            run.raw(size).ifPresent(raw -> {
                List<String> shares = new ArrayList<>();
                for (String s : run.strategies) {
                    run.write(size, s).ifPresent(r -> shares.add(String.format(Locale.ROOT, "%.0f%% of %s's",
                            100 * raw.score / r.score, s)));
                }
                lines.add(String.format(Locale.ROOT, "At %s the storage takes %.2f s to write one copy of the committed "
                        + "bytes (the raw write): %s wave.", size, raw.score / 1000, String.join(", ", shares)));
            });
        }
        return lines;
    }

    /** A metric's smallest and largest value over rows, divided by {@code unit}, e.g. "1.00 to 2.00". */
    private static String range(List<JmhResults.Row> rs, Metric key, double unit, String format) {
        double min = rs.stream().mapToDouble(r -> SeedRun.metric(Optional.of(r), key)).min().orElse(Double.NaN) / unit;
        double max = rs.stream().mapToDouble(r -> SeedRun.metric(Optional.of(r), key)).max().orElse(Double.NaN) / unit;
        String a = SeedTables.num(min, format);
        String b = SeedTables.num(max, format);
        return a.equals(b) ? a : a + " to " + b;
    }
}
