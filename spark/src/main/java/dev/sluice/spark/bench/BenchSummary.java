package dev.sluice.spark.bench;

import dev.sluice.report.PairedRatio;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The measured rounds of every size and writer, summarised: each figure's mean and standard deviation, and each
 * writer against the baselines (per-batch, stock) pair by pair: round i of the writer over round i of the baseline,
 * which ran in the same round of the same application, so that what drifts slowly on a shared machine is in both
 * and cancels in their ratio. The ratios' summary is the harness's {@link PairedRatio}: their geometric mean with the
 * {@value PairedRatio#CONFIDENCE} interval {@code exp(mean ± t(n-1) sd / sqrt(n))} of their logarithms. Improvement
 * is {@code 1 - ratio}, as the seed reports it: positive where the writer is faster.
 */
final class BenchSummary {
    /** The baselines every other writer is compared with, where they ran. */
    static final List<String> BASELINES = List.of("per-batch", "stock");
    /** The compared figures: JSON name, then the word the text uses. */
    static final Map<String, String> COMPARED = new LinkedHashMap<>();
    /** Every figure summarised by mean and sd in the JSON summary. */
    static final List<String> SUMMARISED = List.of("mapperStageMillis", "queryMillis", "sumTaskMillis",
            "driverMillis", "reducerStageMillis", "mapperGcMillis", "reducerGcMillis", "peakHeapBytes",
            "peakOffHeapBytes");

    static {
        COMPARED.put("mapperStageMillis", "mapper");
        COMPARED.put("queryMillis", "query");
        COMPARED.put("sumTaskMillis", "tasks");
    }

    private final List<String> writers;
    private final Map<String, Shape> shapes = new LinkedHashMap<>();
    /** Size, then writer, then the measured runs by iteration. */
    private final Map<String, Map<String, TreeMap<Integer, RunFigures>>> runs = new LinkedHashMap<>();

    /** {@code writers}: the order the summary lists them in. */
    BenchSummary(List<String> writers) {
        this.writers = List.copyOf(writers);
    }

    /** Adds a measured run of {@code shape}; warm-ups are left out. */
    void add(Shape shape, RunFigures run) {
        if (run.warmup()) {
            return;
        }
        shapes.putIfAbsent(shape.size(), shape);
        runs.computeIfAbsent(shape.size(), s -> new LinkedHashMap<>())
                .computeIfAbsent(run.writer(), w -> new TreeMap<>()).put(run.iteration(), run);
    }

    /**
     * {@code writer}'s {@code figure} over {@code baseline}'s, pair by pair (the rounds both have), or null where
     * they share no round or a time is not positive (a ratio needs both).
     */
    static PairedRatio paired(Map<Integer, RunFigures> writer, Map<Integer, RunFigures> baseline, String figure) {
        List<Double> times = new ArrayList<>();
        List<Double> baseTimes = new ArrayList<>();
        for (Map.Entry<Integer, RunFigures> e : new TreeMap<>(writer).entrySet()) {
            RunFigures base = baseline.get(e.getKey());
            if (base != null) {
                times.add(e.getValue().figure(figure));
                baseTimes.add(base.figure(figure));
            }
        }
        boolean positive = times.stream().allMatch(t -> t > 0) && baseTimes.stream().allMatch(t -> t > 0);
        return times.isEmpty() || !positive ? null : PairedRatio.of(times, baseTimes);
    }

    /** "+22.7% [+18.0, +27.1]": the improvement {@code 1 - ratio} and its interval, in percent. */
    static String improvement(PairedRatio ratio) {
        String point = String.format(Locale.ROOT, "%+.1f%%", 100 * ratio.improvement());
        if (!ratio.hasInterval()) {
            return point + " [no interval: 1 pair]";
        }
        return point + String.format(Locale.ROOT, " [%+.1f, %+.1f]", 100 * (1 - ratio.high), 100 * (1 - ratio.low));
    }

    /** The summary of {@code size} in words, one line each. */
    List<String> text(String size) {
        List<String> lines = new ArrayList<>();
        Shape shape = shapes.get(size);
        Map<String, TreeMap<Integer, RunFigures>> bySize = runs.getOrDefault(size, Map.of());
        if (shape == null) {
            return lines;
        }
        lines.add(String.format(Locale.ROOT, "spark-bench: %s x %s, %d tasks, batchBytes %s%s: measured rounds, "
                + "mean ± sd:", size, shape.scale(), shape.tasks(), shape.batchBytes(),
                shape.batchesPerTask() == null ? "" : " (" + shape.batchesPerTask() + " per task)"));
        Double output = outputBytesPerTask(shape, bySize);
        if (output != null) {
            lines.add(String.format(Locale.ROOT, "  map output a task %.1f MB (the seed's bytes x %s: %.1f MB; %d rows "
                    + "a task, sized by %s)", output / 1e6, shape.scale(), Shape.seedBytes(size, shape.scale()) / 1e6,
                    shape.rowsPerTask(), shape.sizing().basis()));
        }
        for (String writer : writers) {
            TreeMap<Integer, RunFigures> w = bySize.get(writer);
            if (w == null) {
                continue;
            }
            lines.add(String.format(Locale.ROOT, "  %-20s mapper stage %s ms  query %s ms  sum of tasks %s ms  "
                    + "(n=%d)  gc mapper/reducer %s/%s ms  heap peak %s MiB  off-heap peak %s MiB", writer,
                    meanSd(w, "mapperStageMillis", 1), meanSd(w, "queryMillis", 1), meanSd(w, "sumTaskMillis", 1),
                    w.size(), meanSd(w, "mapperGcMillis", 1), meanSd(w, "reducerGcMillis", 1),
                    meanSd(w, "peakHeapBytes", 1 << 20), meanSd(w, "peakOffHeapBytes", 1 << 20)));
        }
        for (String baseline : BASELINES) {
            TreeMap<Integer, RunFigures> base = bySize.get(baseline);
            if (base == null) {
                continue;
            }
            for (String writer : writers) {
                TreeMap<Integer, RunFigures> w = bySize.get(writer);
                // Stock against per-batch is per-batch against stock inverted: the text gives the latter.
                if (w == null || writer.equals(baseline) || BASELINES.contains(writer)
                        && BASELINES.indexOf(writer) > BASELINES.indexOf(baseline)) {
                    continue;
                }
                StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %s vs %s:", writer, baseline));
                int pairs = 0;
                String sep = " ";
                for (Map.Entry<String, String> figure : COMPARED.entrySet()) {
                    PairedRatio ratio = paired(w, base, figure.getKey());
                    if (ratio == null) {
                        continue;
                    }
                    pairs = ratio.pairs();
                    line.append(sep).append(figure.getValue()).append(' ').append(improvement(ratio));
                    sep = ", ";
                }
                if (pairs > 0) {
                    lines.add(line.append(String.format(Locale.ROOT, " (%.0f%%, %d pair%s)",
                            100 * PairedRatio.CONFIDENCE, pairs, pairs == 1 ? "" : "s")).toString());
                }
            }
        }
        return lines;
    }

    /**
     * A map task's shuffle bytes, the mean over {@code bySize}'s runs of the first writer listed among per-batch and
     * stock and then the rest, or null without runs.
     */
    private Double outputBytesPerTask(Shape shape, Map<String, TreeMap<Integer, RunFigures>> bySize) {
        List<String> order = new ArrayList<>(BASELINES);
        order.addAll(writers);
        for (String writer : order) {
            TreeMap<Integer, RunFigures> w = bySize.get(writer);
            if (w != null && !w.isEmpty()) {
                return mean(values(w, "shuffleBytes")) / shape.tasks();
            }
        }
        return null;
    }

    private static String meanSd(Map<Integer, RunFigures> runs, String figure, double unit) {
        double[] xs = values(runs, figure);
        double mean = mean(xs);
        if (Double.isNaN(mean)) {
            return "n/a";
        }
        double sd = sd(xs);
        return Double.isNaN(sd) ? String.format(Locale.ROOT, "%.0f", mean / unit)
                : String.format(Locale.ROOT, "%.0f ± %.0f", mean / unit, sd / unit);
    }

    /** The whole summary, every size, for its JSON line ({@code {"summary": ...}}). */
    Map<String, Object> json(String preset) {
        List<Object> sizes = new ArrayList<>();
        for (Map.Entry<String, Map<String, TreeMap<Integer, RunFigures>>> size : runs.entrySet()) {
            Shape shape = shapes.get(size.getKey());
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("size", shape.size());
            s.put("scale", shape.scale());
            s.put("tasks", shape.tasks());
            s.put("batchBytes", shape.batchBytes());
            s.put("batchesPerTask", shape.batchesPerTask());
            s.put("rowsPerTask", shape.rowsPerTask());
            s.put("seedBytesPerTask", Math.round(Shape.seedBytes(shape.size(), shape.scale())));
            s.put("sizing", shape.sizing().json());
            Double output = outputBytesPerTask(shape, size.getValue());
            s.put("mapOutputBytesPerTask", output == null ? null : Math.round(output));
            List<Object> ws = new ArrayList<>();
            for (String writer : writers) {
                TreeMap<Integer, RunFigures> w = size.getValue().get(writer);
                if (w == null) {
                    continue;
                }
                Map<String, Object> entry = new LinkedHashMap<>();
                entry.put("writer", writer);
                entry.put("n", w.size());
                for (String figure : SUMMARISED) {
                    double[] xs = values(w, figure);
                    Map<String, Object> stats = new LinkedHashMap<>();
                    stats.put("mean", mean(xs));
                    stats.put("sd", sd(xs));
                    entry.put(figure, stats);
                }
                Map<String, Object> versus = new LinkedHashMap<>();
                for (String baseline : BASELINES) {
                    TreeMap<Integer, RunFigures> base = size.getValue().get(baseline);
                    if (base == null || baseline.equals(writer)) {
                        continue;
                    }
                    Map<String, Object> figures = new LinkedHashMap<>();
                    for (String figure : COMPARED.keySet()) {
                        PairedRatio ratio = paired(w, base, figure);
                        if (ratio != null) {
                            figures.put(figure, json(ratio));
                        }
                    }
                    versus.put(baseline, figures);
                }
                entry.put("versus", versus);
                ws.add(entry);
            }
            s.put("writers", ws);
            sizes.add(s);
        }
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("confidence", PairedRatio.CONFIDENCE);
        summary.put("preset", preset);
        summary.put("sizes", sizes);
        return Map.of("summary", summary);
    }

    private static Map<String, Object> json(PairedRatio ratio) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("pairs", ratio.pairs());
        r.put("ratio", ratio.ratio);
        r.put("low", ratio.low);
        r.put("high", ratio.high);
        r.put("improvement", ratio.improvement());
        r.put("improvementLow", 1 - ratio.high);
        r.put("improvementHigh", 1 - ratio.low);
        return r;
    }

    /** {@code figure} of every run that has it (off-heap peaks are missing where not readable). */
    private static double[] values(Map<Integer, RunFigures> runs, String figure) {
        return runs.values().stream().mapToDouble(r -> r.figure(figure)).filter(x -> !Double.isNaN(x)).toArray();
    }

    static double mean(double[] xs) {
        return xs.length == 0 ? Double.NaN : java.util.Arrays.stream(xs).average().orElse(Double.NaN);
    }

    static double sd(double[] xs) {
        if (xs.length < 2) {
            return Double.NaN;
        }
        double m = mean(xs);
        return Math.sqrt(java.util.Arrays.stream(xs).map(x -> (x - m) * (x - m)).sum() / (xs.length - 1));
    }
}
