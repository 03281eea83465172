package dev.sluice.bench;

import dev.sluice.bench.Plan.Configuration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What the configurations that ran took, by kind ({@code [seconds, weight]} in the order they ran): what the runner
 * estimates the ones still to run from, to keep the budget's time for them. A reference copied from the cache counts
 * (its seconds are what it cost); one that waited does not, until it runs.
 */
final class KindTimes {
    private final Map<Configuration.Kind, List<double[]>> ran = new EnumMap<>(Configuration.Kind.class);

    /** A configuration of {@code kind} and {@code weight} ran in {@code seconds}. */
    void add(Configuration.Kind kind, double seconds, double weight) {
        ran.computeIfAbsent(kind, k -> new ArrayList<>()).add(new double[] {seconds, weight});
    }

    /**
     * The seconds {@code configs} should take, from the configurations of each kind that ran: the line through the
     * last two of its kind (a fixed cost, a JVM and the inputs, plus a cost growing with the bytes, as the weights do),
     * extended to the configuration's weight, never below the last one's seconds; the last one's seconds where only
     * one ran; none for a kind that has not run. (Scaling one point by the weights alone would count the fixed cost
     * again for every byte: 200 s kept for a small size's floors that took 5.)
     */
    long estimate(List<Configuration> configs) {
        double seconds = 0;
        for (Configuration c : configs) {
            List<double[]> before = ran.getOrDefault(c.kind, List.of());
            if (before.isEmpty()) {
                continue;
            }
            double[] last = before.get(before.size() - 1);
            double estimate = last[0];
            if (before.size() > 1) {
                double[] previous = before.get(before.size() - 2);
                if (last[1] != previous[1]) {
                    double perWeight = Math.max(0, (last[0] - previous[0]) / (last[1] - previous[1]));
                    estimate = last[0] + perWeight * Math.max(0, c.weight - last[1]);
                }
            }
            seconds += estimate;
        }
        return (long) Math.ceil(seconds);
    }
}
