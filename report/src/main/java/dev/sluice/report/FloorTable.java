package dev.sluice.report;

import dev.sluice.core.run.BenchmarkParam;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The seed report's comparison with the floor, the least time this machine allows a wave: a section of its own and a
 * line of the summary.
 */
final class FloorTable {
    private final SeedRun run;

    FloorTable(SeedRun run) {
        this.run = run;
    }

    /**
     * Each size's floor (its parts: serialize and compress on every core, no I/O, and the raw write) and each
     * strategy's mapper stage as a multiple of it, of the sum of its parts, of the baseline's and of ideal's; or, for
     * lz4-frame, why there is none.
     */
    void write(PrintWriter out) {
        if (!run.hasFloors()) {
            out.println("No floor: the run's codec, " + run.codec() + ", compresses Arrow's buffers inside each "
                    + "record, not the serialized record, so FloorBenchmark has no compression floor for it and the "
                    + "plan has no floor configuration.");
            out.println();
            return;
        }
        out.println("The floor of a size is the slowest of the two things every wave must do, serialize the wave's "
                + "records as Arrow IPC and compress them with the run's codec, on every core and without I/O "
                + "(FloorBenchmark's serialize + compress), and write the committed bytes once (the raw write), and "
                + "of the same write made no faster than serialize + compress makes its bytes (the paced write, where "
                + "the run has one: the two overlapped as well as a write through the page cache can follow its "
                + "bytes). No wave can be shorter than the slowest; where the write's copy into the page cache is "
                + "CPU work on the same cores "
                + "as the compression, the CPU work and the write overlap little and a wave comes nearer their sum, "
                + "a reference rather than a bound. Means ± 99.9% error, ms per wave:");
        out.println();
        out.println("| config | serialize | compress | raw write | paced write | floor (the slowest) | sum |");
        out.println("|---|---|---|---|---|---|---|");
        for (String size : run.sizes) {
            Optional<Floor> f = run.floor(size);
            out.println("| " + size + " | " + f.map(x -> ms(x.serialize) + " | " + ms(x.compress) + " | "
                    + ms(x.raw) + " | " + x.paced.map(FloorTable::ms).orElse("n/a")
                    + String.format(Locale.ROOT, " | %.1f (%s) | %.1f", x.floorMs(), x.slower(), x.sumMs()))
                    .orElse("n/a | n/a | n/a | n/a | n/a | n/a") + " |");
        }
        out.println();
        List<String> against = new ArrayList<>(List.of(run.baseline));
        if (run.strategies.contains(Comparisons.IDEAL) && !run.baseline.equals(Comparisons.IDEAL)) {
            against.add(Comparisons.IDEAL);
        }
        out.println("Each strategy's mapper stage (the geometric mean of its waves) as a multiple of the floor, of the "
                + "sum of its parts, and of " + String.join("'s and ", against) + "'s (the ratio of the geometric "
                + "means" + (run.isPaired() ? ", which is the paired ratio where every wave has its pair" : "")
                + "): how far each is from what this machine can do.");
        out.println();
        out.print("| config | strategy | mapper stage | over the floor | over the sum |");
        against.forEach(a -> out.print(" over " + a + " |"));
        out.println();
        out.println("|---|---|---|---|---|" + "---|".repeat(against.size()));
        for (String size : run.sizes) {
            Optional<Floor> f = run.floor(size);
            for (String s : run.strategies) {
                Optional<JmhResults.Row> w = run.write(size, s);
                if (w.isEmpty()) {
                    continue;
                }
                List<Double> waves = Figure.MAPPER.runs.apply(w.get());
                out.printf(Locale.ROOT, "| %s | %s | %.1f ms | %s | %s |", size, s, Floor.geometricMean(waves),
                        f.map(x -> times(x.over(waves))).orElse("n/a"),
                        f.map(x -> times(x.overSum(waves))).orElse("n/a"));
                for (String a : against) {
                    out.print(" " + (a.equals(s) ? "-" : run.write(size, a).map(b -> times(Floor.geometricMean(waves)
                            / Floor.geometricMean(Figure.MAPPER.runs.apply(b)))).orElse("n/a")) + " |");
                }
                out.println();
            }
        }
        out.println();
    }

    /** The fastest strategy's mapper stage over the floor at each size, for the summary; empty without floors. */
    Optional<String> summary(String section) {
        if (!run.hasFloors()) {
            return Optional.empty();
        }
        List<String> parts = new ArrayList<>();
        for (String size : run.sizes) {
            run.floor(size).ifPresent(f -> run.strategies.stream().flatMap(s -> run.write(size, s).stream())
                    .min(Comparator.comparingDouble(r -> Floor.geometricMean(Figure.MAPPER.runs.apply(r))))
                    .ifPresent(r -> parts.add(String.format(Locale.ROOT, "%s %s %s the floor (%s the sum)", size,
                            r.param(BenchmarkParam.STRATEGY), times(f.over(Figure.MAPPER.runs.apply(r))),
                            times(f.overSum(Figure.MAPPER.runs.apply(r)))))));
        }
        return parts.isEmpty() ? Optional.empty() : Optional.of("Against the floor (section " + section + ": the "
                + "slowest of serialize + compress on every core, the raw write and the paced write), the fastest "
                + "strategy at each "
                + "size: " + String.join("; ", parts) + ".");
    }

    private static String times(double ratio) {
        return Double.isNaN(ratio) ? "n/a" : String.format(Locale.ROOT, "%.2fx", ratio);
    }

    /** A row's mean in ms with its 99.9% error, or that it has none. */
    private static String ms(JmhResults.Row r) {
        return Double.isNaN(r.error) ? String.format(Locale.ROOT, "%.1f (no error: %s)", r.score,
                JmhResults.waves(r.samples)) : String.format(Locale.ROOT, "%.1f ± %.1f", r.score, r.error);
    }
}
