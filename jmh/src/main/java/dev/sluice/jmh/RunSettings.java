package dev.sluice.jmh;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The run settings every Sluice benchmark shares, in one place: single-shot waves, as the seed report timed each run
 * of its query once; one warm-up and five measured waves per fork, one fork per configuration (a write benchmark's
 * warm-up wave writes every record cut to its first quarter, see {@link InputState}; the command line's
 * {@code -wi}, {@code -i}, {@code -f} override them; {@code scripts/bench.sh} chooses them per configuration). The JVM
 * flags of the forks come from {@link SluiceBenchmarks}, which sizes the heap to the configuration.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = {JvmFlags.ADD_OPENS, JvmFlags.HEAP_MIN, JvmFlags.HEAP_MAX, JvmFlags.NO_LEAK_DETECTION})
public abstract class RunSettings {
}
