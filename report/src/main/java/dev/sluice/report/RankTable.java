package dev.sluice.report;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * The paired section's two intervals side by side: every mapper-stage comparison against the baseline with the t
 * interval on the logarithms (what the stopping rule and the verdicts use) and the distribution-free rank interval
 * ({@link RankInterval}: Wilcoxon's signed-rank test with the Hodges-Lehmann estimate), and which of them decides it.
 */
final class RankTable {
    private RankTable() {}

    /** The table of {@code ratio(size, strategy)} against {@code baseline}, for every size and strategy that has one. */
    static void write(PrintWriter out, List<String> sizes, List<String> strategies, String baseline,
                      BiFunction<String, String, Optional<PairedRatio>> ratio) {
        out.printf(Locale.ROOT, "Mapper stage against %s, both intervals at 99%%: Student's t on the logarithms of the "
                + "pairs' ratios (the stopping rule's and the verdicts'), and the rank interval (Wilcoxon's "
                + "signed-rank test, the Hodges-Lehmann ratio), which a few slow pairs widen by their ranks, not by "
                + "their size. A 99%% rank interval needs %d pairs or more to exclude 1. Decided: the interval "
                + "excludes 1.%n%n", baseline, RankInterval.fewestPairs(PairedRatio.CONFIDENCE));
        out.println("| config | strategy | t: ratio [99%] | rank: ratio [99%] | pairs | decided by |");
        out.println("|---|---|---|---|---|---|");
        for (String size : sizes) {
            for (String s : strategies) {
                if (s.equals(baseline)) {
                    continue;
                }
                Optional<PairedRatio> r = ratio.apply(size, s);
                if (r.isEmpty()) {
                    continue;
                }
                PairedRatio p = r.get();
                RankInterval rank = p.rank();
                boolean byT = p.faster() || p.slower();
                boolean byRank = rank.decided();
                out.printf(Locale.ROOT, "| %s | %s | %s | %s | %d | %s |%n", size, s,
                        interval(p.ratio, p.low, p.high), interval(rank.ratio, rank.low, rank.high), p.pairs(),
                        byT && byRank ? "both" : byT ? "t only" : byRank ? "rank only" : "neither");
            }
        }
        out.println();
    }

    private static String interval(double ratio, double low, double high) {
        return Double.isNaN(low) ? String.format(Locale.ROOT, "%.3f (no interval)", ratio)
                : String.format(Locale.ROOT, "%.3f [%.3f, %.3f]", ratio, low, high);
    }
}
