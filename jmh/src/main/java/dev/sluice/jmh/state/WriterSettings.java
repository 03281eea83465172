package dev.sluice.jmh.state;

import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.core.run.BenchmarkTerms;
import dev.sluice.core.run.Trial;
import dev.sluice.core.run.Workload;
import dev.sluice.spi.InvalidParameterException;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.storage.CountedStorage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * The executor settings every strategy of a trial shares (spark-rapids' writer threads, host memory limit, and
 * whether commits force their files), for {@link WriterState}'s one strategy and {@link PairedState}'s several.
 */
@State(Scope.Benchmark)
public class WriterSettings {
    /** Separates the values of a list parameter of the paired benchmark (JMH's own separator, the comma, makes trials). */
    public static final String LIST = BenchmarkTerms.LIST;

    @Param({"16"})
    public int threads;

    /**
     * The executor's host memory limit: {@code none} (upstream's default), a byte size, or {@code machine}, this
     * machine's memory, read here in the fork ({@link MemoryLimit}). {@link PairedWaveBenchmark} also takes one value
     * per strategy, in the strategies' order, separated by {@value #LIST}.
     */
    @Param({"none"})
    public String memoryLimit;

    /** fsync of data, index and checksum files at commit. */
    @Param({"false"})
    public boolean sync;

    /**
     * {@code true}: every write goes through {@code CountedStorage}, counted (what every run does); {@code false}: the
     * same files through {@code CountedStorage.uncounted()}, to measure what the counting costs (the run's {@code io.*}
     * figures are then zero). {@link PairedWaveBenchmark} also takes one value per strategy, in their order, separated
     * by {@value #LIST}: {@code -p strategies=ideal+ideal -p counting=true+false} pairs a strategy with itself uncounted.
     */
    @Param({"true"})
    public String counting;

    /** Whether each of {@code strategies} strategies counts its I/O: one value for all, or one each. */
    public List<Boolean> countings(int strategies) {
        List<Boolean> out = new ArrayList<>();
        for (String value : perStrategy(BenchmarkParam.COUNTING.key(), counting, strategies, "true or false")) {
            if (!value.equals("true") && !value.equals("false")) {
                throw new InvalidParameterException(BenchmarkParam.COUNTING.key(), counting, "true or false, for every strategy or one "
                        + "per strategy in their order separated by '" + LIST + "'");
            }
            out.add(Boolean.parseBoolean(value));
        }
        return out;
    }

    /** A storage for a strategy that {@code counts} its I/O, or not ({@link #countings}). */
    public static CountedStorage storage(boolean counts) {
        return counts ? new CountedStorage() : CountedStorage.uncounted();
    }

    /** The {@code memoryLimit} of each of {@code strategies} strategies: one value for all, or one each. */
    public List<String> memoryLimits(int strategies) {
        return perStrategy(BenchmarkParam.MEMORY_LIMIT.key(), memoryLimit, strategies, "one limit");
    }

    /**
     * A per-strategy parameter's value for each of {@code strategies} strategies: {@code value} is one for every
     * strategy, or one per strategy in their order separated by {@value #LIST}; any other count is refused.
     */
    private static List<String> perStrategy(String parameter, String value, int strategies, String one) {
        List<String> values = split(value);
        if (values.size() == 1) {
            return Collections.nCopies(strategies, values.get(0));
        }
        if (values.size() != strategies) {
            throw new InvalidParameterException(parameter, value, one + " for every strategy, or one per strategy in "
                    + "their order separated by '" + LIST + "' (" + strategies + " here)");
        }
        return values;
    }

    /** The configuration of a strategy with memory limit {@code limit} (one of {@link #memoryLimits}), without its output directory. */
    public WriterConfig.Builder config(Workload workload, String limit) {
        return config(workload, threads, limit, sync);
    }

    /** The same for settings given as values: what a fork with these parameters would use. */
    public static WriterConfig.Builder config(Workload workload, int threads, String limit, boolean sync) {
        return WriterConfig.builder().partitions(workload.partitions).threads(threads)
                .memoryLimit(MemoryLimit.parse(BenchmarkParam.MEMORY_LIMIT.key(), limit)).fsync(sync);
    }

    /**
     * Checks strategy {@code spec} with these settings and memory limit {@code limit} (one of {@link #memoryLimits})
     * for {@code workload}, its files going under the trial directory's base ({@link Trial#check}: refused before any
     * input is made where it cannot fit); says what {@code machine} came to and what the strategy warns of.
     *
     * @param parameter the JMH parameter the spec came from, for errors
     */
    public Trial check(String parameter, String spec, String limit, Workload workload) throws IOException {
        WriterConfig.Builder builder = config(workload, limit);
        if (MemoryLimit.MACHINE.equals(limit)) {
            System.out.printf(Locale.ROOT, "sluice: %s: memoryLimit=%s: %d bytes, this machine's memory%n", spec,
                    limit, MemoryLimit.parse(BenchmarkParam.MEMORY_LIMIT.key(), limit));
        }
        Trial trial = Trial.check(parameter, spec, builder, workload, TrialDirectory.base());
        for (String warning : trial.warnings()) {
            System.err.println("sluice: warning: " + spec + ": " + warning);
        }
        return trial;
    }

    /** A list parameter's values: {@code a+b+c}. */
    public static List<String> split(String list) {
        return Arrays.asList(list.split(java.util.regex.Pattern.quote(LIST), -1));
    }
}
