package dev.sluice.spark.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.spi.InvalidParameterException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A task sized by its map output: the seed's shuffle bytes are what its map tasks wrote, after the codec. */
class OutputSizingTest {
    @Test
    void aTaskSizedByOutputMakesTheSeedsBytesOverARowsShareOfTheOutput() {
        // 2 tasks of 1,000,000 rows wrote 55,800,000 bytes: 27.9 bytes a row. Small x 0.25 is 100.5 MB a task.
        RowSizing sizing = RowSizing.output(55_800_000L, 2_000_000L, "test");
        assertEquals(27.9, sizing.bytesPerRow(), 1e-9);
        Shape small = Shape.seed("small", 0.25, 2, sizing);
        assertEquals(3_602_150, small.rowsPerTask());
        assertEquals(1, small.batchesPerTask());
        // The batch size stays in serialized bytes, the unit spark.sluice.batchBytes counts in.
        assertEquals(3_602_150L * Shape.ROW_BYTES, Long.parseLong(small.batchBytes()));
        // By serialized rows the same task is 0.634 as many rows.
        assertEquals(2_284_090, Shape.seed("small", 0.25, 2, RowSizing.SERIALIZED).rowsPerTask());
        assertEquals(100.5e6, Shape.seedBytes("small", 0.25), 1e-6);
    }

    @Test
    void aMapOutputOfNothingSizesNothing() {
        assertThrows(IllegalArgumentException.class, () -> RowSizing.output(0, 10, "test"));
        assertThrows(IllegalArgumentException.class, () -> RowSizing.output(10, 0, "test"));
    }

    @Test
    void sizeByIsOutputByDefaultAndRefusesAnythingButOutputOrRowsNamingIt() {
        assertEquals(RowSizing.OUTPUT, BenchOptions.parse(new String[0]).sizeBy);
        assertEquals(RowSizing.ROWS, BenchOptions.parse(new String[] {"--size-by", "rows"}).sizeBy);
        InvalidParameterException e = assertThrows(InvalidParameterException.class,
                () -> BenchOptions.parse(new String[] {"--size-by", "bytes"}));
        assertEquals("--size-by", e.parameter());
        assertEquals("bytes", e.value());
        assertTrue(e.allowed().startsWith("output") && e.allowed().contains("rows"), e.allowed());
    }

    @Test
    void theTaskRateOfARunSizedByOutputIsKeptApartFromOneSizedByRows(@TempDir Path dir) throws Exception {
        BenchOptions options = BenchOptions.parse(new String[] {"--scale", "0.05"});
        RowSizing output = RowSizing.output(27_900_000L, 1_000_000L, "test");
        assertFalse(new SparkTaskRate(options, output, System.err).taskRateKey(dir)
                .equals(new SparkTaskRate(options, RowSizing.SERIALIZED, System.err).taskRateKey(dir)));
    }

    @Test
    void perBatchsMapOutputSizesTheRowsAndNothingIsLeftOfTheSizingRun(@TempDir Path dir) throws Exception {
        // The seed job writes parquet through Hadoop's FileSystem, whose UserGroupInformation before Hadoop 3.5 (Spark
        // 4.1.1 has 3.4.2) calls Subject.getSubject, which JDK 24 and later refuse (JEP 486).
        String hadoop = org.apache.hadoop.util.VersionInfo.getVersion();
        assumeTrue(Runtime.version().feature() < 24 || !hadoop.startsWith("3.4") && !hadoop.startsWith("3.3"),
                "Hadoop " + hadoop + " cannot write parquet on JDK " + Runtime.version().feature());
        BenchOptions options = BenchOptions.parse(new String[] {"--scale", "0.002", "--tasks", "2", "--work",
                dir.resolve("work").toString()});
        Path localBase = dir.resolve("local");
        Files.createDirectories(localBase);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        RowSizing sizing = OutputSizing.measure(options, localBase,
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String log = err.toString(StandardCharsets.UTF_8);
        Shape measured = OutputSizing.sizingShape(options);
        Matcher wrote = Pattern.compile("warm-up 0 +per-batch .* verified").matcher(log);
        assertTrue(wrote.find(), log);
        assertEquals(RowSizing.OUTPUT, sizing.basis());
        // lz4 over the rows' 44 bytes: less than 44 a row, and more than the 16 random bytes among them.
        assertTrue(sizing.bytesPerRow() > 16 && sizing.bytesPerRow() < Shape.ROW_BYTES, sizing.toString());
        assertTrue(sizing.how().contains(measured.rowsPerTask() + " rows"), sizing.how());
        assertTrue(log.contains("sized by map output: per-batch wrote"), log);
        List<Shape> shapes = options.shapes(sizing);
        assertEquals((long) (Shape.seedBytes("small", 0.002) / sizing.bytesPerRow()), shapes.get(0).rowsPerTask());
        assertFalse(Files.exists(localBase.resolve("sizing")), "the sizing run's local directory is removed");
        assertFalse(Files.exists(dir.resolve("work").resolve("sizing")), "the sizing run's parquet is removed");
    }
}
