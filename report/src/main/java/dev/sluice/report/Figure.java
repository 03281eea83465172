package dev.sluice.report;

import dev.sluice.core.run.Metric;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A figure of the seed report's rows: its measured waves, each on the clock {@link #clock} names, and their mean. Its
 * error and its comparisons come from those waves: none from one wave.
 */
final class Figure {
    final String name;
    final String title;
    /** The figure's name as its chart is captioned. */
    final String caption;
    /** Which clock the figure's waves are timed on, in words for the report. */
    final String clock;
    /** The figure's chart, a file beside the report. */
    final String png;
    final Function<JmhResults.Row, Double> value;
    final Function<JmhResults.Row, List<Double>> runs;

    private Figure(String name, String title, String caption, String clock, String png,
                   Function<JmhResults.Row, Double> value, Function<JmhResults.Row, List<Double>> runs) {
        this.name = name;
        this.title = title;
        this.caption = caption;
        this.clock = clock;
        this.png = png;
        this.value = value;
        this.runs = runs;
    }

    /** JMH's own clock: the time of the benchmark method, one measured wave each. */
    static final Figure MAPPER = new Figure("mapper stage time",
            "Mapper stage time (the wave: every task written and committed)", "Mapper stage time",
            "JMH's clock (the score: the benchmark method's time, one wave per measured iteration)", "mapper.png",
            r -> r.score, r -> r.runs);
    /**
     * The mapper stage's waves on JMH's clock plus the reduce side's read after each (timed on its own), wave by
     * wave, so that query total is never shorter than the mapper stage it contains. (The secondary metric
     * {@code query.totalMillis} adds the read to the wave's own inner clock instead, which starts when the tasks are
     * released and leaves out what JMH's clock also times around them.)
     */
    static final Figure QUERY = new Figure("query total time",
            "Query total time (the wave plus the reduce side's read of every partition)", "Query total time",
            "JMH's clock for the wave (the mapper stage's figure) plus the reduce side's read, timed on its own right "
                    + "after each wave (`" + Metric.QUERY_READ_MILLIS.key() + "`), added wave by wave", "query.png",
            r -> Stats.mean(queryRuns(r)), Figure::queryRuns);
    static final Figure TASK_SUM = new Figure("sum of mapper task durations",
            "Sum of all mapper task durations", "Sum of mapper task durations",
            "each map task's own clock, from the wave's start to its commit, summed over the wave's tasks "
                    + "(`" + Metric.WAVE_SUM_TASK_MILLIS.key() + "`)", "tasks.png",
            r -> r.metric(Metric.WAVE_SUM_TASK_MILLIS).orElse(Double.NaN),
            r -> r.metricRuns(Metric.WAVE_SUM_TASK_MILLIS));
    /** The time figures, in the report's order. */
    static final List<Figure> TIMES = List.of(QUERY, MAPPER, TASK_SUM);

    /** Each measured wave's query total: its mapper stage (JMH's clock) plus its read; none if the read is missing. */
    static List<Double> queryRuns(JmhResults.Row r) {
        List<Double> reads = r.metricRuns(Metric.QUERY_READ_MILLIS);
        if (reads.size() != r.runs.size()) {
            return List.of();
        }
        List<Double> total = new ArrayList<>();
        for (int i = 0; i < reads.size(); i++) {
            total.add(r.runs.get(i) + reads.get(i));
        }
        return total;
    }

    /** The 99.9% error of the mean of the row's waves; NaN with one wave. */
    double error(JmhResults.Row r) {
        return JmhResults.error(runs.apply(r));
    }

    int waves(JmhResults.Row r) {
        return runs.apply(r).size();
    }
}
