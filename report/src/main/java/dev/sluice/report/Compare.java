package dev.sluice.report;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Compares two JMH results benchmark by benchmark: the ratio new/base of the geometric means of their measured waves
 * with a {@value #CONFIDENCE} interval from Welch's t on the logarithms ({@link Stats#welch}: the two runs' waves are
 * independent), and a verdict. Where both results are paired runs (scripts/bench.sh's default) and a strategy has a
 * paired ratio to its run's baseline in each ({@link PairedRatio}), it also gives the change of that ratio between the
 * runs, with the same kind of interval over the two runs' pair ratios; drift of the machine between the two runs, or a
 * different machine, cancels in it, so it decides the strategy's verdict. A benchmark is "slower" when the whole
 * interval lies above 1 + threshold (for times; below 1 - threshold for throughputs), so a guard in someone's CI fails
 * only on a slowdown that is both real and large enough.
 */
final class Compare {
    enum Verdict {
        FASTER("faster"), SLOWER("SLOWER"), SLOWER_WITHIN_THRESHOLD("slower, within threshold"),
        NO_DIFFERENCE("no significant difference"), NO_ERROR_ESTIMATE("no error: one wave"),
        ONLY_IN_BASE("only in base"), ONLY_IN_NEW("only in new");

        final String text;

        Verdict(String text) {
            this.text = text;
        }
    }

    /** The confidence of every interval. */
    static final double CONFIDENCE = PairedRatio.CONFIDENCE;

    static final class Line {
        final String key;
        final JmhResults.Row base;
        final JmhResults.Row fresh;
        final double ratio;
        final double low;
        final double high;
        final Verdict verdict;
        /** The strategy's paired ratio to its run's baseline in each run, where both runs have one; else null. */
        final PairedRatio basePaired;
        final PairedRatio freshPaired;
        /** The change of that ratio, new over base, with its interval; null without. */
        final Stats.Interval pairedChange;

        Line(String key, JmhResults.Row base, JmhResults.Row fresh, double ratio, double low, double high, Verdict verdict) {
            this(key, base, fresh, ratio, low, high, verdict, null, null, null);
        }

        Line(String key, JmhResults.Row base, JmhResults.Row fresh, double ratio, double low, double high,
             Verdict verdict, PairedRatio basePaired, PairedRatio freshPaired, Stats.Interval pairedChange) {
            this.key = key;
            this.base = base;
            this.fresh = fresh;
            this.ratio = ratio;
            this.low = low;
            this.high = high;
            this.verdict = verdict;
            this.basePaired = basePaired;
            this.freshPaired = freshPaired;
            this.pairedChange = pairedChange;
        }
    }

    private Compare() {}

    static List<Line> compare(List<JmhResults.Row> base, List<JmhResults.Row> fresh, double threshold) {
        Map<String, JmhResults.Row> byKey = new LinkedHashMap<>();
        for (JmhResults.Row r : base) {
            byKey.put(key(r), r);
        }
        List<Line> lines = new ArrayList<>();
        for (JmhResults.Row n : fresh) {
            String k = key(n);
            JmhResults.Row b = byKey.remove(k);
            if (b == null) {
                lines.add(new Line(k, null, n, Double.NaN, Double.NaN, Double.NaN, Verdict.ONLY_IN_NEW));
                continue;
            }
            lines.add(line(k, b, n, threshold, PairedRows.toBaseline(b, base), PairedRows.toBaseline(n, fresh)));
        }
        byKey.forEach((k, b) -> lines.add(new Line(k, b, null, Double.NaN, Double.NaN, Double.NaN, Verdict.ONLY_IN_BASE)));
        return lines;
    }

    private static Line line(String key, JmhResults.Row b, JmhResults.Row n, double threshold, PairedRatio basePaired,
                             PairedRatio freshPaired) {
        Stats.Interval direct = Stats.welch(b.runs, n.runs, CONFIDENCE);
        Stats.Interval change = basePaired != null && freshPaired != null
                ? Stats.welch(basePaired.ratios, freshPaired.ratios, CONFIDENCE) : null;
        // Where both runs paired the strategy with the same baseline, the change of that ratio decides: it is what
        // stays of the difference once the machine's own drift between the runs is divided out.
        Stats.Interval decides = change != null ? change : direct;
        double ratio = decides.ratio;
        if (!decides.hasInterval()) {
            return new Line(key, b, n, direct.ratio, Double.NaN, Double.NaN, Verdict.NO_ERROR_ESTIMATE, basePaired,
                    freshPaired, change);
        }
        double low = decides.low;
        double high = decides.high;
        boolean lowerIsBetter = !n.unit.startsWith("ops/");
        Verdict verdict;
        if (lowerIsBetter) {
            verdict = low > 1 + threshold ? Verdict.SLOWER : low > 1 ? Verdict.SLOWER_WITHIN_THRESHOLD
                    : high < 1 ? Verdict.FASTER : Verdict.NO_DIFFERENCE;
        } else {
            verdict = high < 1 - threshold ? Verdict.SLOWER : high < 1 ? Verdict.SLOWER_WITHIN_THRESHOLD
                    : low > 1 ? Verdict.FASTER : Verdict.NO_DIFFERENCE;
        }
        return new Line(key, b, n, direct.ratio, direct.low, direct.high, verdict, basePaired, freshPaired, change);
    }

    static String key(JmhResults.Row r) {
        StringBuilder k = new StringBuilder(r.benchmark.replaceFirst("^.*\\.([^.]+\\.[^.]+)$", "$1"));
        r.params.forEach((name, value) -> k.append(' ').append(name).append('=').append(value));
        return k.toString();
    }

    /**
     * Why two results cannot be compared, or null if they can: they share no configuration (the same benchmark with
     * the same parameters), which a comparison that passed would hide. Names what each file holds and the parameters
     * whose values differ between them.
     */
    static String nothingShared(List<Line> lines, String baseName, List<JmhResults.Row> base, String newName,
                                List<JmhResults.Row> fresh) {
        if (lines.stream().anyMatch(l -> l.base != null && l.fresh != null)) {
            return null;
        }
        Map<String, Set<String>> baseValues = values(base);
        Map<String, Set<String>> newValues = values(fresh);
        Set<String> names = new TreeSet<>(baseValues.keySet());
        names.addAll(newValues.keySet());
        List<String> differ = new ArrayList<>();
        for (String name : names) {
            Set<String> b = baseValues.getOrDefault(name, Set.of());
            Set<String> n = newValues.getOrDefault(name, Set.of());
            if (!b.equals(n)) {
                differ.add(String.format("%s (%s: %s; %s: %s)", name, baseName, b.isEmpty() ? "absent"
                        : String.join(", ", b), newName, n.isEmpty() ? "absent" : String.join(", ", n)));
            }
        }
        return String.format("invalid NEW.json '%s': it shares no configuration (the same benchmark with the same "
                        + "parameters) with BASE.json '%s', so nothing can be compared; allowed are two results of at "
                        + "least one same configuration. %s holds %s; %s holds %s.%s", newName, baseName, baseName,
                holds(base), newName, holds(fresh), differ.isEmpty() ? ""
                        : " Parameters whose values differ: " + String.join("; ", differ) + ".");
    }

    /** Every parameter's values over the rows. */
    private static Map<String, Set<String>> values(List<JmhResults.Row> rows) {
        Map<String, Set<String>> values = new TreeMap<>();
        for (JmhResults.Row r : rows) {
            r.params.forEach((name, value) -> values.computeIfAbsent(name, k -> new TreeSet<>()).add(value));
        }
        return values;
    }

    /** "3 results: ShuffleWriteBenchmark.wave (2), RawWriteBenchmark.writeSequentially (1)". */
    private static String holds(List<JmhResults.Row> rows) {
        if (rows.isEmpty()) {
            return "no result";
        }
        Map<String, Integer> benchmarks = new LinkedHashMap<>();
        for (JmhResults.Row r : rows) {
            benchmarks.merge(r.benchmark.replaceFirst("^.*\\.([^.]+\\.[^.]+)$", "$1"), 1, Integer::sum);
        }
        List<String> parts = new ArrayList<>();
        benchmarks.forEach((b, n) -> parts.add(b + " (" + n + ")"));
        return rows.size() + (rows.size() == 1 ? " result: " : " results: ") + String.join(", ", parts);
    }

    /** Prints the comparison; returns whether some benchmark got slower beyond the threshold. */
    static boolean print(List<Line> lines, double threshold, PrintStream out) {
        out.printf(Locale.ROOT, "Threshold: %.1f%%. Ratio = new / base, the geometric means of their measured waves, with "
                + "a %.0f%% interval from Welch's t on the logarithms. Paired: each run's ratio of the strategy to its "
                + "run's baseline (the geometric mean of its pairs, %.0f%% interval from t on the logarithms), and the "
                + "change of that ratio from base to new with a Welch interval on the pairs' logarithms; where a "
                + "strategy has it, it decides the verdict.%n%n", threshold * 100, 100 * CONFIDENCE, 100 * CONFIDENCE);
        out.println("| benchmark | base | new | ratio [interval] | paired: base, new, change [interval] | verdict |");
        out.println("|---|---|---|---|---|---|");
        boolean slower = false;
        for (Line l : lines) {
            slower |= l.verdict == Verdict.SLOWER;
            out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s | %s |%n", l.key, score(l.base), score(l.fresh),
                    Double.isNaN(l.ratio) ? "-" : Double.isNaN(l.low)
                            ? String.format(Locale.ROOT, "%.3f", l.ratio)
                            : String.format(Locale.ROOT, "%.3f [%.3f, %.3f]", l.ratio, l.low, l.high),
                    paired(l), verdictText(l));
        }
        out.println();
        out.println(slower ? "Result: at least one benchmark is SLOWER beyond the threshold." : "Result: no benchmark is slower beyond the threshold.");
        return slower;
    }

    private static String paired(Line l) {
        if (l.pairedChange == null) {
            return "-";
        }
        return String.format(Locale.ROOT, "%s, %s, %s", PairedRows.text(l.basePaired), PairedRows.text(l.freshPaired),
                l.pairedChange.hasInterval() ? String.format(Locale.ROOT, "%.3f [%.3f, %.3f]", l.pairedChange.ratio,
                        l.pairedChange.low, l.pairedChange.high) : String.format(Locale.ROOT, "%.3f (no interval: "
                        + "one pair)", l.pairedChange.ratio));
    }

    private static String verdictText(Line l) {
        if (l.verdict != Verdict.NO_ERROR_ESTIMATE) {
            return l.verdict.text;
        }
        List<String> which = new ArrayList<>();
        boolean paired = l.pairedChange != null;
        if (paired ? l.basePaired.pairs() < 2 : l.base.samples < 2) {
            which.add("base");
        }
        if (paired ? l.freshPaired.pairs() < 2 : l.fresh.samples < 2) {
            which.add("new");
        }
        return "no error: one " + (paired ? "pair" : "wave") + " in " + String.join(" and ", which);
    }

    private static String score(JmhResults.Row r) {
        if (r == null) {
            return "-";
        }
        return Double.isNaN(r.error) ? String.format(Locale.ROOT, "%.3f %s (one wave)", r.score, r.unit)
                : String.format(Locale.ROOT, "%.3f ± %.3f %s", r.score, r.error, r.unit);
    }
}
