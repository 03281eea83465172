package dev.sluice.jmh.profile;

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

    /** A result averaged over the iterations. */
    static ScalarResult avg(String label, double value, String unit) {
        return new ScalarResult(label, value, unit, AggregationPolicy.AVG);
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
