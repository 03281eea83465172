package dev.sluice.bench;

import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.jmh.profile.ShuffleIoProfiler;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * One JMH run of the runner: one benchmark class, one value per parameter, in one fork per benchmark method (one but
 * for FloorBenchmark's two) that fails the run when the benchmark fails; its file name under {@code runs/} and
 * {@code logs/} (without the extension).
 */
final class JmhRun {
    final String file;
    final Class<?> benchmark;
    final Map<BenchmarkParam, String> params = new LinkedHashMap<>();
    final int warmups;
    final int iterations;

    JmhRun(String file, Class<?> benchmark, int warmups, int iterations) {
        this.file = file;
        this.benchmark = benchmark;
        this.warmups = warmups;
        this.iterations = iterations;
    }

    JmhRun param(BenchmarkParam name, String value) {
        params.put(name, value);
        return this;
    }

    /** The run as JMH's command line would say it, for plan.txt and the progress lines. */
    String describe() {
        List<String> words = new ArrayList<>(List.of(benchmark.getSimpleName()));
        params.forEach((name, value) -> words.add("-p " + name + "=" + value));
        words.add("-f 1 -foe true -wi " + warmups + " -i " + iterations);
        return String.join(" ", words);
    }

    /**
     * The JMH options: its result as JSON into {@code result}, the forks given {@code forkFlags}, with
     * ShuffleIoProfiler's figures.
     */
    Options options(Path result, List<String> forkFlags) {
        OptionsBuilder options = new OptionsBuilder();
        options.include("^" + Pattern.quote(benchmark.getName() + "."));
        params.forEach((name, value) -> options.param(name.key(), value));
        options.warmupIterations(warmups).measurementIterations(iterations).forks(1).shouldFailOnError(true)
                .resultFormat(ResultFormatType.JSON).result(result.toString())
                .jvmArgsAppend(forkFlags.toArray(new String[0])).addProfiler(ShuffleIoProfiler.class);
        return options.build();
    }
}
