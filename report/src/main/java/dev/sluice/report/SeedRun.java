package dev.sluice.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.core.input.DataSize;
import dev.sluice.core.run.BenchmarkName;
import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.core.run.Metric;
import dev.sluice.core.strategy.StrategySets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The seed report's model of a run: its rows selected once (each size's and strategy's waves, the raw-write reference,
 * the machine's noise floor), in the order the report shows them, its baseline, and every comparison with it, which
 * the tables, the charts and the written analysis all read.
 */
final class SeedRun {
    final List<JmhResults.Row> rows;
    /** The waves of one strategy each: the rows the report compares. */
    final List<JmhResults.Row> writes;
    /** The sizes from smallest to largest, then any the report does not know, in the result's order. */
    final List<String> sizes = new ArrayList<>();
    /** The strategies in the plan's order, then any others in the result's order. */
    final List<String> strategies = new ArrayList<>();
    /** What every strategy is compared with ({@link #baseline(List, List)}). */
    final String baseline;
    /** The paired comparisons' section, where the run paired its strategies; else null. */
    final PairedSection paired;
    /** Every comparison made, by figure, size and strategy. */
    private final Map<List<String>, Optional<Improvement>> improvements = new HashMap<>();

    /** @param stops the run's stops.json (why each paired configuration stopped), or null */
    SeedRun(List<JmhResults.Row> rows, JsonNode stops) {
        this.rows = rows;
        this.writes = rows.stream().filter(JmhResults.Row::isWave).toList();
        Set<String> sizeSet = new LinkedHashSet<>();
        Set<String> strategySet = new LinkedHashSet<>();
        for (JmhResults.Row r : writes) {
            sizeSet.add(r.param(BenchmarkParam.SIZE));
            strategySet.add(r.param(BenchmarkParam.STRATEGY));
        }
        for (DataSize d : DataSize.values()) {
            if (sizeSet.remove(d.label())) {
                sizes.add(d.label());
            }
        }
        sizes.addAll(sizeSet);
        strategies.addAll(inPlanOrder(strategySet));
        baseline = baseline(writes, strategies);
        paired = writes.stream().anyMatch(r -> !r.pairing().isEmpty())
                ? new PairedSection(writes, sizes, strategies, baseline, stops) : null;
    }

    /** {@code strategies} in the plan's order ({@link StrategySets#SEED}), then any others in their own. */
    static List<String> inPlanOrder(Collection<String> strategies) {
        List<String> ordered = new ArrayList<>();
        Set<String> rest = new LinkedHashSet<>(strategies);
        for (String s : StrategySets.SEED) {
            if (rest.remove(s)) {
                ordered.add(s);
            }
        }
        ordered.addAll(rest);
        return ordered;
    }

    /**
     * What every strategy is compared with: a paired run's first strategy (each paired configuration names its
     * strategies, the baseline first); an unpaired run's first strategy in the plan's order, as scripts/bench.sh
     * documents; empty where the rows have no wave.
     */
    static String baseline(List<JmhResults.Row> rows, List<String> strategiesInPlanOrder) {
        return rows.stream().filter(r -> r.isWave() && !r.pairing().isEmpty()).findFirst().map(PairedRows::baseline)
                .orElse(strategiesInPlanOrder.isEmpty() ? "" : strategiesInPlanOrder.get(0));
    }

    boolean isPaired() {
        return paired != null;
    }

    Optional<JmhResults.Row> write(String size, String strategy) {
        return writes.stream().filter(r -> r.param(BenchmarkParam.SIZE).equals(size) && r.param(BenchmarkParam.STRATEGY).equals(strategy))
                .findFirst();
    }

    Optional<JmhResults.Row> raw(String size) {
        return Floor.rawWrite(rows, size);
    }

    /** The floor under a size's waves (serialize + compress, and the raw write), where the run measured it. */
    Optional<Floor> floor(String size) {
        return Floor.of(rows, size);
    }

    /** Whether the run measured any floor (FloorBenchmark). */
    boolean hasFloors() {
        return Floor.measured(rows);
    }

    /** The codec every wave shares, or empty where they differ or name none. */
    String codec() {
        Set<String> codecs = new TreeSet<>();
        writes.forEach(r -> codecs.add(r.param(BenchmarkParam.CODEC)));
        return codecs.size() == 1 ? codecs.iterator().next() : "";
    }

    /** The machine's own spread over the same iterations, where the run measured it. */
    Optional<JmhResults.Row> noiseFloor() {
        return rows.stream().filter(r -> r.is(BenchmarkName.NOISE_FLOOR)).findFirst();
    }

    /** The rows whose precision the report states: every row but the noise floor's (the floors' included). */
    List<JmhResults.Row> measured() {
        return rows.stream().filter(r -> !r.is(BenchmarkName.NOISE_FLOOR)).toList();
    }

    String largest() {
        return sizes.get(sizes.size() - 1);
    }

    /** The strategies compared with the baseline. */
    List<String> others() {
        return strategies.stream().filter(s -> !s.equals(baseline)).toList();
    }

    /** The counts of measured waves the rows have, e.g. "3, 5". */
    String measuredWaves() {
        Set<Integer> counts = new TreeSet<>();
        for (JmhResults.Row r : rows) {
            counts.add(r.samples);
        }
        return counts.toString().replaceAll("[\\[\\]]", "");
    }

    /** The mean wave times of every write and raw-write configuration, summed (ms). */
    double oneIterationOfEverything() {
        double sum = 0;
        for (JmhResults.Row r : measured()) {
            sum += r.score;
        }
        return sum;
    }

    static double metric(Optional<JmhResults.Row> r, Metric key) {
        return r.map(x -> x.metric(key).orElse(Double.NaN)).orElse(Double.NaN);
    }

    /** A strategy against the baseline on a figure at a size, computed once; empty where either has no row. */
    Optional<Improvement> improvement(Figure figure, String size, String strategy) {
        return improvements.computeIfAbsent(List.of(figure.name, size, strategy),
                k -> compare(figure, size, strategy));
    }

    private Optional<Improvement> compare(Figure figure, String size, String strategy) {
        Optional<JmhResults.Row> base = write(size, baseline);
        Optional<JmhResults.Row> other = write(size, strategy);
        if (base.isEmpty() || other.isEmpty()) {
            return Optional.empty();
        }
        PairedRatio pairs = null;
        if (!other.get().pairing().isEmpty() && PairedRows.partner(other.get(), baseline, rows) == base.get()) {
            pairs = PairedRows.of(figure.runs.apply(other.get()), figure.runs.apply(base.get()));
        }
        return Optional.of(Improvement.of(figure, base.get(), other.get(), pairs));
    }
}
