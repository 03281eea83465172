package dev.sluice.jmh;

import dev.sluice.core.input.BatchGenerator;
import dev.sluice.core.input.DataSize;
import dev.sluice.core.input.InputSpec;
import dev.sluice.core.input.KeyDistribution;
import dev.sluice.core.input.MapTaskInput;
import dev.sluice.core.input.SchemaSpec;
import dev.sluice.core.partition.Partitioning;
import dev.sluice.core.verify.Reference;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The input parameters every benchmark shares, and the generation of one map task's input from them: the same
 * parameters give the same bytes in every fork, so every strategy is measured on identical input. The run shape is
 * the seed report's: single-shot map tasks, one warm-up and three measured, one fork per configuration.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgsAppend = {JvmFlags.ADD_OPENS, JvmFlags.HEAP_MIN, JvmFlags.HEAP_MAX, JvmFlags.NO_LEAK_DETECTION})
@State(Scope.Benchmark)
public abstract class BenchmarkInput {
    @Param({"small"})
    public String size;

    @Param({"1"})
    public double scale;

    @Param({"200"})
    public int partitions;

    @Param({"32768"})
    public int rowsPerBatch;

    @Param({"hash"})
    public String partitioning;

    @Param({"uniform"})
    public String keys;

    @Param({"42"})
    public long seed;

    /** Map output and scratch files go under this directory (a fresh subdirectory per trial). */
    public static final String DIR_PROPERTY = "sluice.dir";

    /** A fresh directory for one trial's files, under {@code -Dsluice.dir} or {@code java.io.tmpdir}. */
    protected static Path newTrialDirectory(String prefix) throws IOException {
        return Files.createTempDirectory(Paths.get(System.getProperty(DIR_PROPERTY, System.getProperty("java.io.tmpdir"))), prefix);
    }

    /** Removes a trial's directory and everything left in it. */
    protected static void deleteTrialDirectory(Path dir) throws IOException {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /**
     * The window {@link ShuffleIoProfiler} reports: it opens after the iteration's setup and closes before its output
     * is removed, whose deletes the kernel would otherwise count as cancelled writes.
     */
    @Setup(Level.Iteration)
    public void beforeIteration() {
        IoMetrics.operationsStarting();
    }

    @TearDown(Level.Iteration)
    public void afterIteration() throws IOException {
        IoMetrics.operationsEnded();
        removeIterationOutput();
    }

    /** Removes what the iteration's operations wrote, outside the measured window. */
    protected abstract void removeIterationOutput() throws IOException;

    protected InputSpec inputSpec() {
        return new InputSpec(DataSize.parse("size", size), scale, rowsPerBatch, KeyDistribution.parse("keys", keys),
                seed, SchemaSpec.defaults());
    }

    protected Partitioning partitioningScheme() {
        return Partitioning.parse("partitioning", partitioning);
    }

    protected MapTaskInput generate(BufferAllocator allocator) {
        InputSpec spec = inputSpec();
        MapTaskInput input = BatchGenerator.generate(spec, allocator);
        System.out.printf(Locale.ROOT, "%nsluice input: %s x %s, %d rows, %d bytes, %d batches, fingerprint %s%n",
                size, scale, input.rows(), input.bytes(), input.batches().size(), input.fingerprint());
        return input;
    }

    protected Reference reference(MapTaskInput input, long mapId) {
        return Reference.compute(input, partitioningScheme().create(partitions, mapId));
    }
}
