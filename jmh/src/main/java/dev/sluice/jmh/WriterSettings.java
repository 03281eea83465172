package dev.sluice.jmh;

import dev.sluice.spi.InvalidParameterException;
import dev.sluice.core.run.BenchmarkTerms;
import dev.sluice.core.run.Workload;
import dev.sluice.spi.WriterConfig;
import java.util.Arrays;
import java.util.List;
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
    static final String LIST = BenchmarkTerms.LIST;

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

    /** The {@code memoryLimit} of each of {@code strategies} strategies: one value for all, or one each. */
    List<String> memoryLimits(int strategies) {
        List<String> limits = split(memoryLimit);
        if (limits.size() == 1) {
            return java.util.Collections.nCopies(strategies, limits.get(0));
        }
        if (limits.size() != strategies) {
            throw new InvalidParameterException("memoryLimit", memoryLimit, "one limit for every strategy, or one per "
                    + "strategy in their order separated by '" + LIST + "' (" + strategies + " here)");
        }
        return limits;
    }

    /** The configuration of a strategy with memory limit {@code limit} (one of {@link #memoryLimits}), without its output directory. */
    WriterConfig.Builder config(Workload workload, String limit) {
        return WriterConfig.builder().partitions(workload.partitions).threads(threads)
                .memoryLimit(MemoryLimit.parse("memoryLimit", limit)).fsync(sync);
    }

    /** A list parameter's values: {@code a+b+c}. */
    static List<String> split(String list) {
        return Arrays.asList(list.split(java.util.regex.Pattern.quote(LIST), -1));
    }
}
