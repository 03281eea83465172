package dev.sluice.jmh.profile;

import dev.sluice.core.run.Metric;
import java.util.Collection;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * What one iteration of a Sluice benchmark measured besides its time, as JMH secondary results: each benchmark family
 * (a wave, the network boundary, the GPU map task) has its own figures and says what results they make.
 */
public interface Figures {
    /** The iteration's secondary results. */
    Collection<? extends Result> results();

    /** A secondary result of the shared vocabulary, with its unit and its aggregation over iterations. */
    static ScalarResult result(Metric metric, double value) {
        return new ScalarResult(metric.key(), value, metric.unit(),
                AggregationPolicy.valueOf(metric.aggregation().name()));
    }

    /**
     * Hands the figures of the iteration that just ran to {@link ShuffleIoProfiler}, which JMH calls right after it:
     * JMH gives a profiler no way to read a benchmark's state, and its {@code @AuxCounters} are summed over
     * iterations rather than averaged, so a benchmark's iteration state publishes here at its teardown and the
     * profiler takes it. The one channel between them.
     */
    static void publish(Figures figures) {
        IterationFigures.LAST.set(figures);
    }
}
