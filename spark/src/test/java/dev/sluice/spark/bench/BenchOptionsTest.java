package dev.sluice.spark.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.input.DataSize;
import dev.sluice.spi.InvalidParameterException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** spark-bench's command line and the shapes it runs: no Spark. */
class BenchOptionsTest {
    private static BenchOptions parse(String... args) {
        return BenchOptions.parse(args);
    }

    /** Runs the command line as main does; the exit status, then what it printed on stderr. */
    private static Map.Entry<Integer, String> launch(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = SparkBench.launch(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return Map.entry(status, err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void theDefaultsAreOneWarmUpAndFiveMeasuredRoundsOfOneSize() {
        BenchOptions o = parse();
        assertEquals(1, o.warmups);
        assertEquals(5, o.iterations);
        assertEquals(BenchOptions.DEFAULT_WRITERS, o.writers);
        assertEquals(RowSizing.OUTPUT, o.sizeBy);
        assertEquals(List.of(Shape.of("small", 0.1, 2, "64m", RowSizing.SERIALIZED)), o.shapes(RowSizing.SERIALIZED));
        assertNull(o.shapes(RowSizing.SERIALIZED).get(0).batchesPerTask());
    }

    @Test
    void anUnknownPresetExitsWith2NamingTheOptionTheValueAndWhatIsAllowed() {
        InvalidParameterException e = assertThrows(InvalidParameterException.class, () -> parse("--preset", "huge"));
        assertEquals("--preset", e.parameter());
        assertEquals("huge", e.value());
        assertTrue(e.allowed().startsWith("seed"), e.allowed());
        Map.Entry<Integer, String> run = launch("--preset", "huge");
        assertEquals(2, run.getKey());
        assertTrue(run.getValue().contains("invalid --preset 'huge': allowed is seed"), run.getValue());
    }

    @Test
    void thePresetWithASizeIsRefusedNamingBoth() {
        for (String[] args : List.of(new String[] {"--preset", "seed", "--size", "large"},
                new String[] {"--size", "large", "--preset", "seed"})) {
            Map.Entry<Integer, String> run = launch(args);
            assertEquals(2, run.getKey());
            assertTrue(run.getValue().contains("--preset") && run.getValue().contains("--size large"),
                    run.getValue());
        }
    }

    @Test
    void thePresetWithABatchSizeIsRefusedNamingBoth() {
        InvalidParameterException e = assertThrows(InvalidParameterException.class,
                () -> parse("--preset", "seed", "--batch-bytes", "98m"));
        assertEquals("--preset", e.parameter());
        assertTrue(e.allowed().contains("--batch-bytes 98m"), e.allowed());
    }

    @Test
    void thePresetRunsTheSeedsFiveSizesEachCutIntoItsBatchesPerTask() {
        BenchOptions o = parse("--preset", "seed", "--scale", "0.25");
        assertEquals(BenchOptions.SEED_PRESET_WRITERS, o.writers);
        List<Shape> shapes = o.shapes(RowSizing.SERIALIZED);
        assertEquals(List.of("small", "medium", "large", "xlarge", "xxlarge"), shapes.stream().map(Shape::size)
                .toList());
        for (int i = 0; i < shapes.size(); i++) {
            Shape shape = shapes.get(i);
            int batches = i + 1;
            assertEquals(batches, shape.batchesPerTask(), shape.size());
            long batchBytes = Long.parseLong(shape.batchBytes());
            // The task's bytes over its batches, rounded up: the rows reach the size once per batch but the last.
            assertEquals((shape.taskBytes() + batches - 1) / batches, batchBytes, shape.size());
            assertTrue((long) batches * batchBytes >= shape.taskBytes(), shape.size());
            assertTrue((long) (batches - 1) * batchBytes < shape.taskBytes(), shape.size());
            assertEquals(0.25, shape.scale());
            assertEquals(2, shape.tasks());
        }
        // The seed's xxlarge at scale 0.25: 487.5 MB a task, 5 batches of 97.5 MB (it was reproduced with 98m).
        Shape xxlarge = shapes.get(4);
        assertEquals(11_079_545, xxlarge.rowsPerTask());
        assertEquals(97_499_996, Long.parseLong(xxlarge.batchBytes()));
    }

    @Test
    void theSeedSizesAreTheHarnesssOwn() {
        Shape.SEED_TASK_BYTES.forEach((size, bytes) -> {
            DataSize data = DataSize.parse("--size", size);
            assertEquals(data.bytes(), bytes, size);
            assertEquals(data.seedBatches(), Shape.seed(size, 0.1, 2, RowSizing.SERIALIZED).batchesPerTask(), size);
        });
    }

    @Test
    void thePresetKeepsWritersGivenAndRefusesAScaleWhoseBatchesSparkSluiceCannotCut() {
        assertEquals(List.of("stock", "async"), parse("--writers", "stock,async", "--preset", "seed").writers);
        // small at scale 6: one batch of 2.41 GB, over spark.sluice.batchBytes's 2 GiB.
        InvalidParameterException e = assertThrows(InvalidParameterException.class,
                () -> parse("--preset", "seed", "--scale", "6"));
        assertEquals("--scale", e.parameter());
        assertTrue(e.allowed().contains("small would cut 1 batches"), e.allowed());
    }

    @Test
    void theMemoryLimitIsNoneUnlessGivenAndDefaultLeavesItToTheManager() {
        assertEquals("none", parse().memoryLimit);
        assertEquals(BenchOptions.DEFAULT_MEMORY_LIMIT, parse("--memory-limit", "default").memoryLimit);
        assertEquals("512m", parse("--memory-limit", "512m").memoryLimit);
        InvalidParameterException e = assertThrows(InvalidParameterException.class,
                () -> parse("--memory-limit", "lots"));
        assertEquals("spark.sluice.memoryLimit", e.parameter());
    }

    @Test
    void asyncWithSkipMergeIsRefusedInsideSpark() {
        InvalidParameterException e = assertThrows(InvalidParameterException.class,
                () -> parse("--preset", "seed", "--writers", "stock,async:skipMerge=true"));
        assertEquals("--writers", e.parameter());
        assertTrue(BenchOptions.HELP.contains("async:skipMerge=true is refused"));
    }

    @Test
    void theHelpSaysTheDefaultsTheParseGives() {
        BenchOptions o = parse();
        for (String line : List.of("--scale X           multiplies the size (default: " + o.scale + ")",
                "--tasks N           map tasks (default: " + o.tasks + ")",
                "--warmup N          warm-up rounds, not in the summary (default: " + o.warmups + ")",
                "--iterations N      measured rounds (default: " + o.iterations + ")",
                "(default: " + o.master + ")", "(default: " + o.work + ")", "(default: " + o.batchBytes + ")",
                "(default: " + o.threads + ")", "(default: " + o.memoryLimit + ")", "(default: " + o.size + ")",
                String.join(",", o.writers) + "; with --preset seed:")) {
            assertTrue(BenchOptions.HELP.contains(line), line + " missing from:\n" + BenchOptions.HELP);
        }
    }

    /** --spark names a line scripts/spark-bench has a class path for, and the one this class path holds. */
    @Test
    void theSparkAskedForMustBeASupportedLineAndTheOneRunning() {
        String running = org.apache.spark.package$.MODULE$.SPARK_VERSION();
        assertTrue(BenchOptions.SPARK_LINES.contains(running), running + " is not one of " + BenchOptions.SPARK_LINES);
        parse("--spark", running);
        InvalidParameterException unknown = assertThrows(InvalidParameterException.class,
                () -> parse("--spark", "3.5.0"));
        assertEquals("--spark", unknown.parameter());
        assertTrue(unknown.allowed().contains("4.1.1") && unknown.allowed().contains("4.2.0"), unknown.allowed());
        String other = BenchOptions.SPARK_LINES.stream().filter(v -> !v.equals(running)).findFirst().orElseThrow();
        InvalidParameterException wrong = assertThrows(InvalidParameterException.class,
                () -> parse("--spark", other));
        assertTrue(wrong.allowed().contains("the Spark on this class path, " + running), wrong.allowed());
        assertTrue(BenchOptions.HELP.contains("(default: 4.2.0, the newest)"), BenchOptions.HELP);
    }

    @Test
    void settingsRepeatAndValuesMayFollowAnEqualsSignAsInEveryOtherToolOfSluice() {
        BenchOptions o = parse("--conf", "spark.a=1", "--conf=spark.b=x=y", "--tasks=3");
        assertEquals(Map.of("spark.a", "1", "spark.b", "x=y"), o.conf);
        assertEquals(3, o.tasks);
        InvalidParameterException e = assertThrows(InvalidParameterException.class, () -> parse("--fast", "1"));
        assertEquals("--fast", e.value());
        assertTrue(e.allowed().contains("--writers") && e.allowed().contains("--conf"), e.allowed());
        assertTrue(parse("--tasks", "3", "--help").help);
    }
}
