package dev.sluice.report;

import dev.sluice.core.run.Metric;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BiFunction;

/** The paired section's table of where the waves spread, against the process's CPU time and page faults. */
final class WaveSpreadTable {
    private WaveSpreadTable() {}

    /**
     * Where the waves spread: per configuration and strategy, the waves' mean and standard deviation beside the
     * process's user and system CPU time over them (/proc/self/stat) and their page faults. What pairing cannot cancel
     * is each wave's own spread, and this says whether it is the writers' work (user) or the kernel's (system: page
     * faults on fresh memory, the page cache). {@code row} finds a size's and strategy's paired row.
     */
    static void write(PrintWriter out, List<String> sizes, List<String> strategies,
                      BiFunction<String, String, Optional<JmhResults.Row>> row) {
        List<String> lines = new ArrayList<>();
        for (String size : sizes) {
            for (String s : strategies) {
                row.apply(size, s).ifPresent(r -> {
                    List<Double> sys = r.metricRuns(Metric.CPU_SYSTEM_MILLIS);
                    List<Double> user = r.metricRuns(Metric.CPU_USER_MILLIS);
                    List<Double> faults = r.metricRuns(Metric.CPU_MINOR_FAULTS);
                    if (sys.size() != r.runs.size() || user.size() != r.runs.size() || r.runs.size() < 2) {
                        return;
                    }
                    lines.add(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %.0f | %s |", size, s,
                            meanSd(r.runs), meanSd(user), meanSd(sys), Stats.mean(faults), correlation(r.runs, sys)));
                });
            }
        }
        if (lines.isEmpty()) {
            return;
        }
        out.println("Where each strategy's waves spread: the wave's time beside the process's CPU time over it "
                + "(`/proc/self/stat`: user, the writers' own work; system, the kernel's: page faults on fresh "
                + "memory, the page cache) and its minor page faults, mean ± standard deviation over the waves. "
                + "Pairing cancels what drifts from round to round, not what each wave draws afresh.");
        out.println();
        out.println("| config | strategy | wave (s) | user CPU (s) | system CPU (s) | minor faults per wave "
                + "| correlation of wave and system time |");
        out.println("|---|---|---|---|---|---|---|");
        lines.forEach(out::println);
        out.println();
    }

    private static String meanSd(List<Double> millis) {
        return String.format(Locale.ROOT, "%.2f ± %.2f", Stats.mean(millis) / 1000, Stats.sd(millis) / 1000);
    }

    /** Pearson's correlation of two series of the same length; "n/a" where either does not vary. */
    private static String correlation(List<Double> a, List<Double> b) {
        double ma = Stats.mean(a);
        double mb = Stats.mean(b);
        double sab = 0;
        double saa = 0;
        double sbb = 0;
        for (int i = 0; i < a.size(); i++) {
            sab += (a.get(i) - ma) * (b.get(i) - mb);
            saa += (a.get(i) - ma) * (a.get(i) - ma);
            sbb += (b.get(i) - mb) * (b.get(i) - mb);
        }
        return saa == 0 || sbb == 0 ? "n/a" : String.format(Locale.ROOT, "%.2f", sab / Math.sqrt(saa * sbb));
    }
}
