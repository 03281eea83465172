package dev.sluice.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.core.run.BenchmarkParam;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * The report's section on a paired run: every strategy's ratio to the baseline and to {@code ideal}, pair by pair
 * with its 99% interval, for the mapper stage and the query total; how many intervals are within
 * {@link StoppingRule#TARGET} of their ratio; why each configuration stopped ({@code stops.json}); the pairs' own
 * ratios where an interval stayed wide, which show why; and a chart of the improvements with their intervals.
 */
final class PairedSection {
    private final List<JmhResults.Row> rows;
    private final List<String> sizes;
    private final List<String> strategies;
    private final String baseline;
    /** stops.json's array, or null where the run has none. */
    private final JsonNode stops;

    PairedSection(List<JmhResults.Row> rows, List<String> sizes, List<String> strategies, String baseline,
                  JsonNode stops) {
        this.rows = rows;
        this.sizes = sizes;
        this.strategies = strategies;
        this.baseline = baseline;
        this.stops = stops;
    }

    private Optional<JmhResults.Row> row(String size, String strategy) {
        return rows.stream().filter(r -> !r.pairing().isEmpty() && r.param(BenchmarkParam.SIZE).equals(size)
                && r.param(BenchmarkParam.STRATEGY).equals(strategy)).findFirst();
    }

    /** A strategy's ratio to {@code against} at a size for a figure's waves; empty if either is missing or unpaired. */
    Optional<PairedRatio> ratio(String size, String strategy, String against,
                                Function<JmhResults.Row, List<Double>> waves) {
        Optional<JmhResults.Row> r = row(size, strategy);
        if (r.isEmpty() || strategy.equals(against)) {
            return Optional.empty();
        }
        JmhResults.Row base = PairedRows.partner(r.get(), against, rows);
        return base == null ? Optional.empty() : Optional.ofNullable(PairedRows.of(waves.apply(r.get()),
                waves.apply(base)));
    }

    /** The baselines the run compared with: the baseline, and ideal where the run has it. */
    private List<String> baselines() {
        List<String> out = new ArrayList<>(List.of(baseline));
        if (strategies.contains(Comparisons.IDEAL) && !baseline.equals(Comparisons.IDEAL)) {
            out.add(Comparisons.IDEAL);
        }
        return out;
    }

    /** Every comparison of a figure: [within target, with an interval, all]. */
    private int[] counts(Function<JmhResults.Row, List<Double>> waves) {
        int within = 0;
        int interval = 0;
        int all = 0;
        for (String size : sizes) {
            for (String against : baselines()) {
                for (String s : strategies) {
                    Optional<PairedRatio> r = ratio(size, s, against, waves);
                    if (r.isEmpty()) {
                        continue;
                    }
                    all++;
                    interval += r.get().hasInterval() ? 1 : 0;
                    within += r.get().hasInterval() && r.get().relativeHalfWidth() <= StoppingRule.TARGET ? 1 : 0;
                }
            }
        }
        return new int[] {within, interval, all};
    }

    /** The summary's line: how many intervals reached the target, and why the others stopped. */
    String summary(Function<JmhResults.Row, List<Double>> mapper, String section) {
        int[] c = counts(mapper);
        return String.format(Locale.ROOT, "Paired: %d of %d mapper-stage comparisons (every strategy against %s%s, at "
                        + "every size) have a 99%% interval within %.0f%% of their ratio%s. Section %s says why each "
                        + "size stopped.", c[0], c[2], baseline, baselines().size() > 1 ? " and against ideal" : "",
                100 * StoppingRule.TARGET, c[1] < c[2] ? "; " + (c[2] - c[1]) + " have no interval (one pair)" : "",
                section);
    }

    /**
     * The first screen's verdict: how many mapper-stage comparisons against the baseline are decided (their 99%
     * interval excludes 1), and for each undecided one its interval, its pairs and what deciding it would take if its
     * ratio and spread stayed as they are ({@link BudgetAllocation#pairsToClose}), in pairs and in minutes at its
     * size's measured seconds per pair (stops.json's time over its pairs, a chunk's fixed costs included).
     */
    List<String> decisions(Function<JmhResults.Row, List<Double>> mapper) {
        BudgetAllocation allocation = new BudgetAllocation();
        List<String> undecided = new ArrayList<>();
        int decided = 0;
        int total = 0;
        for (String size : sizes) {
            for (String s : strategies) {
                Optional<PairedRatio> r = ratio(size, s, baseline, mapper);
                if (r.isEmpty()) {
                    continue;
                }
                total++;
                PairedRatio p = r.get();
                if (BudgetAllocation.decided(p)) {
                    decided++;
                    continue;
                }
                int needed = allocation.pairsToClose(p);
                double seconds = secondsToReach(allocation, size, p.pairs(), needed);
                undecided.add(String.format(Locale.ROOT, "%s `%s`: %s after %d pairs; %s; kept open by %s", size, s,
                        cell(r), p.pairs(), allocation.closed(p) ? "within " + Math.round(100 * StoppingRule.TARGET)
                                + "% of its ratio: any effect is smaller than that"
                                : String.format(Locale.ROOT, "deciding it would take about %s pairs in all%s",
                                        needed >= BudgetAllocation.MAX_PAIRS ? "more than " + needed : needed,
                                        Double.isNaN(seconds) ? "" : String.format(Locale.ROOT, ", %.0f more "
                                                + "minutes", seconds / 60)), limit(allocation, p, seconds)));
            }
        }
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "Decided: %d of %d mapper-stage comparisons against %s (their 99%% "
                + "interval excludes 1)%s", decided, total, baseline, undecided.isEmpty() ? "." : "; undecided:"));
        lines.addAll(undecided);
        return lines;
    }

    /** Minutes more of a size's pairs within which a comparison counts as kept open by the budget alone. */
    static final double BUDGET_MINUTES = 10;

    /**
     * What kept an undecided comparison open, in words: an effect smaller than the target (its ratio within it of 1,
     * or its interval already within the target); else the budget, where deciding it would take at most
     * {@value #BUDGET_MINUTES} more minutes of its size; else the spread of its pairs (their log ratios' sd).
     */
    static String limit(BudgetAllocation allocation, PairedRatio p, double secondsMore) {
        if (allocation.closed(p) || Math.abs(Math.log(p.ratio)) < Math.log1p(allocation.target)) {
            return String.format(Locale.ROOT, "an effect near none (under %.0f%%)", 100 * allocation.target);
        }
        if (!Double.isNaN(secondsMore) && secondsMore <= BUDGET_MINUTES * 60) {
            return "the budget";
        }
        return p.hasInterval() ? String.format(Locale.ROOT, "the spread of its pairs (sd %.1f%% on the log scale)",
                100 * p.logSd) : "its one pair";
    }

    /**
     * The seconds a size would take from {@code pairs} to {@code needed} pairs: from the costs its stop recorded, as
     * the stop's own words reckon them ({@link BudgetAllocation#secondsToReach}); for a stop that recorded none (no
     * budget, or a run from before they were recorded) at its seconds per pair so far; NaN where it has no stop.
     */
    private double secondsToReach(BudgetAllocation allocation, String size, int pairs, int needed) {
        if (stops != null) {
            for (JsonNode stop : stops) {
                if (size.equals(stop.path(BenchmarkParam.SIZE.key()).asText()) && stop.path("pairs").asInt() > 0) {
                    if (stop.has("secondsPerRound") && stop.has("secondsPerChunk")) {
                        return allocation.secondsToReach(pairs, needed, stop.path("secondsPerRound").asDouble(),
                                stop.path("secondsPerChunk").asDouble());
                    }
                    return Math.max(0, needed - pairs) * stop.path("seconds").asDouble() / stop.path("pairs").asInt();
                }
            }
        }
        return Double.NaN;
    }

    private static String cell(Optional<PairedRatio> r) {
        if (r.isEmpty()) {
            return "n/a";
        }
        PairedRatio p = r.get();
        if (!p.hasInterval()) {
            return String.format(Locale.ROOT, "%.3f (no interval: one pair)", p.ratio);
        }
        return String.format(Locale.ROOT, "%.3f [%.3f, %.3f] (±%.1f%%%s)", p.ratio, p.low, p.high,
                100 * p.relativeHalfWidth(), p.relativeHalfWidth() <= StoppingRule.TARGET ? "" : " ⚠");
    }

    /** The section's body, under the heading the report gives it. */
    void write(PrintWriter out, Function<JmhResults.Row, List<Double>> mapper,
               Function<JmhResults.Row, List<Double>> query) {
        String design = rows.stream().filter(r -> !r.pairing().isEmpty()).map(JmhResults.Row::pairing).findFirst()
                .orElse("");
        out.println("Each size's strategies were measured " + (design.equals(PairedRun.ROUNDS)
                ? "in rounds: one JMH fork per chunk, the strategies taking turns wave by wave on the same inputs "
                + "(PairedWaveBenchmark), so a pair is two waves of the same round"
                : "in alternating forks: one fork per strategy per chunk, so a pair is the same iteration of two forks "
                + "of one chunk") + ". Ratio: the strategy's time over the other's, the geometric mean of the pairs' "
                + "ratios, with its 99% interval (Student's t on the logarithms of the pairs' ratios); (±x%): the "
                + "interval's half-width in % of the ratio, ⚠ past " + Math.round(100 * StoppingRule.TARGET)
                + "%. Below 1: faster.");
        out.println();
        out.print("| config | strategy |");
        for (String against : baselines()) {
            out.print(" mapper stage vs " + against + " |");
        }
        out.print(" query total vs " + baseline + " | pairs |");
        out.println();
        out.println("|---|---|" + "---|".repeat(baselines().size()) + "---|---|");
        for (String size : sizes) {
            for (String s : strategies) {
                if (row(size, s).isEmpty()) {
                    continue;
                }
                out.print("| " + size + " | " + s + " |");
                for (String against : baselines()) {
                    out.print(" " + (s.equals(against) ? "-" : cell(ratio(size, s, against, mapper))) + " |");
                }
                out.print(" " + (s.equals(baseline) ? "-" : cell(ratio(size, s, baseline, query))) + " |");
                out.println(" " + row(size, s).get().samples + " |");
            }
        }
        out.println();
        int[] m = counts(mapper);
        int[] q = counts(query);
        out.printf(Locale.ROOT, "Within %.0f%% of their ratio: %d of %d mapper-stage comparisons, %d of %d "
                + "query-total comparisons (against %s%s).%n%n", 100 * StoppingRule.TARGET, m[0], m[2], q[0], q[2],
                baseline, baselines().size() > 1 ? " and ideal" : "");
        RankTable.write(out, sizes, strategies, baseline, (size, s) -> ratio(size, s, baseline, mapper));
        if (stops != null && stops.size() > 0) {
            out.println("Why each size stopped (`stops.json`):");
            out.println();
            out.println("| config | pairs | chunks | time (s) | stopped | why |");
            out.println("|---|---|---|---|---|---|");
            for (JsonNode stop : stops) {
                out.printf(Locale.ROOT, "| %s | %d | %d | %.0f | %s | %s |%n", stop.path("config").asText(),
                        stop.path("pairs").asInt(), stop.path("chunks").asInt(), stop.path("seconds").asDouble(),
                        stop.path("reason").asText(), stop.path("why").asText());
            }
            out.println();
        }
        List<String> wide = new ArrayList<>();
        for (String size : sizes) {
            for (String against : baselines()) {
                for (String s : strategies) {
                    ratio(size, s, against, mapper).filter(r -> !r.hasInterval()
                            || r.relativeHalfWidth() > StoppingRule.TARGET).ifPresent(r -> wide.add(String.format(
                            Locale.ROOT, "| %s | %s / %s | %.2f | %s |", size, s, against, 100 * r.logSd,
                            ratios(r))));
                }
            }
        }
        if (!wide.isEmpty()) {
            out.println("The pairs' own ratios (mapper stage) where the interval is wider than the target, in pair "
                    + "order: what is left once drift cancels is each wave's own spread, and a few pairs far from the "
                    + "rest widen the interval.");
            out.println();
            out.println("| config | comparison | sd of the log ratios (%) | each pair's ratio |");
            out.println("|---|---|---|---|");
            wide.forEach(out::println);
            out.println();
        }
        WaveSpreadTable.write(out, sizes, strategies, this::row);
        out.println("![Improvement over " + baseline + ", paired](improvement.png)");
        out.println();
    }

    private static String ratios(PairedRatio r) {
        StringBuilder t = new StringBuilder();
        for (double v : r.ratios) {
            t.append(t.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.2f", v));
        }
        return t.toString();
    }

    /** improvement.png: each strategy's mapper-stage improvement over the baseline per size, with its interval. */
    void chart(Path png, Function<JmhResults.Row, List<Double>> mapper) throws IOException {
        List<String> series = new ArrayList<>(strategies);
        series.remove(baseline);
        double[][] values = new double[series.size()][sizes.size()];
        double[][] errors = new double[series.size()][sizes.size()];
        for (int s = 0; s < series.size(); s++) {
            for (int i = 0; i < sizes.size(); i++) {
                Optional<PairedRatio> r = ratio(sizes.get(i), series.get(s), baseline, mapper);
                values[s][i] = r.map(p -> 100 * p.improvement()).orElse(Double.NaN);
                // XChart's whiskers are symmetric: the larger side of the interval, so none is understated.
                errors[s][i] = r.filter(PairedRatio::hasInterval).map(p -> 100 * Math.max(p.high - p.ratio,
                        p.ratio - p.low)).orElse(Double.NaN);
            }
        }
        // An improvement is at most +100%; an interval's lower end can be far below -100% with few pairs, so the
        // chart stops at -150% (the table has every end).
        Charts.signedBars(png, "Mapper stage improvement over " + baseline + ", paired (higher is better)",
                "% (whiskers: the 99% interval's larger side, cut at the chart's edge)", sizes, series, values, errors,
                -150, 100);
    }
}
