package dev.sluice.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** compare.sh's comparison: verdicts from the waves each result has, and a refusal when nothing is shared. */
class CompareTest {
    private static final String WAVE = "dev.sluice.jmh.write.ShuffleWriteBenchmark.wave";

    private static List<JmhResults.Row> rows(Path file, String limit, List<Double> waves) throws Exception {
        return JmhResults.read(new SyntheticResults().other(WAVE, Map.of("strategy", "async:skipMerge=true",
                "memoryLimit", limit), waves).write(file));
    }

    @Test
    void resultsThatShareNoConfigurationAreRefusedNamingWhatEachHolds(@TempDir Path dir) throws Exception {
        List<JmhResults.Row> base = rows(dir.resolve("a.json"), "25274793984", List.of(10.0, 11.0, 12.0));
        List<JmhResults.Row> fresh = rows(dir.resolve("b.json"), "134217728000", List.of(10.0, 11.0, 12.0));
        List<Compare.Line> lines = Compare.compare(base, fresh, 0.05);
        String refusal = Compare.nothingShared(lines, "a.json", base, "b.json", fresh);
        assertTrue(refusal.startsWith("invalid NEW.json 'b.json': it shares no configuration"), refusal);
        assertTrue(refusal.contains("a.json holds 1 result: ShuffleWriteBenchmark.wave (1)"), refusal);
        assertTrue(refusal.contains("memoryLimit (a.json: 25274793984; b.json: 134217728000)"), refusal);

        ReportTools.UsageException e = assertThrows(ReportTools.UsageException.class, () -> ReportTools.run(
                new String[] {"compare", dir.resolve("a.json").toString(), dir.resolve("b.json").toString(), "0.05"}));
        assertTrue(e.getMessage().contains("shares no configuration"), e.getMessage());
    }

    @Test
    void resultsOfTheSameConfigurationAreCompared(@TempDir Path dir) throws Exception {
        List<JmhResults.Row> base = rows(dir.resolve("a.json"), "machine", List.of(10.0, 11.0));
        List<JmhResults.Row> fresh = rows(dir.resolve("b.json"), "machine", List.of(20.0, 20.5));
        List<Compare.Line> lines = Compare.compare(base, fresh, 0.05);
        assertNull(Compare.nothingShared(lines, "a.json", base, "b.json", fresh));
        assertEquals(1, lines.size());
        assertTrue(!Double.isNaN(lines.get(0).low), "two waves give an interval");
    }

    @Test
    void aResultOfOneWaveHasNoErrorAndSaysWhich(@TempDir Path dir) throws Exception {
        List<JmhResults.Row> base = rows(dir.resolve("a.json"), "none", List.of(10.0));
        List<JmhResults.Row> fresh = rows(dir.resolve("b.json"), "none", List.of(10.0, 11.0, 12.0));
        List<Compare.Line> lines = Compare.compare(base, fresh, 0.05);
        assertEquals(Compare.Verdict.NO_ERROR_ESTIMATE, lines.get(0).verdict);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Compare.print(lines, 0.05, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("| no error: one wave in base |"), text);
        assertTrue(!text.contains("sample?"), text);
    }

    /** A paired result: per-batch and buffered over {@code rounds} rounds, the machine {@code speed} times as fast. */
    private static List<JmhResults.Row> paired(Path file, double speed, double bufferedShare, int rounds)
            throws Exception {
        double[][] t = new double[rounds][];
        for (int r = 0; r < rounds; r++) {
            double base = (1000 + 37 * (r % 3)) / speed;
            t[r] = new double[] {base, bufferedShare * base * (1 + 0.002 * (r % 2))};
        }
        Path dir = file.getParent().resolve(file.getFileName() + ".run");
        java.nio.file.Files.createDirectories(dir.resolve("runs"));
        new SyntheticResults().paired("tiny", List.of("per-batch", "buffered"), "none", t)
                .write(dir.resolve("runs/01-tiny-c1.json"));
        PairedDirectories.of(dir, "tiny", List.of("per-batch", "buffered")).writeResults();
        java.nio.file.Files.copy(dir.resolve("jmh-result.json"), file);
        return JmhResults.read(file);
    }

    @Test
    void aPairedStrategysVerdictComesFromItsRatioToTheBaselineWhichAFasterMachineDoesNotChange(@TempDir Path dir)
            throws Exception {
        // The new run's machine is 30% faster throughout; buffered's share of per-batch's time is the same.
        List<JmhResults.Row> base = paired(dir.resolve("a.json"), 1.0, 0.8, 6);
        List<JmhResults.Row> fresh = paired(dir.resolve("b.json"), 1.3, 0.8, 6);
        List<Compare.Line> lines = Compare.compare(base, fresh, 0.05);
        Compare.Line buffered = lines.stream().filter(l -> l.key.contains("strategy=buffered")).findFirst()
                .orElseThrow();
        assertTrue(buffered.high < 1, "its own time is faster: " + buffered.low + ", " + buffered.high);
        assertEquals(Compare.Verdict.NO_DIFFERENCE, buffered.verdict, "its ratio to per-batch did not change");
        assertEquals(1.0, buffered.pairedChange.ratio, 0.01);

        // Now buffered takes 90% of per-batch's time instead of 80%, on the same machine: slower, by its ratio.
        List<JmhResults.Row> slower = paired(dir.resolve("c.json"), 1.0, 0.9, 6);
        Compare.Line worse = Compare.compare(base, slower, 0.05).stream()
                .filter(l -> l.key.contains("strategy=buffered")).findFirst().orElseThrow();
        assertEquals(Compare.Verdict.SLOWER, worse.verdict);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        assertTrue(Compare.print(List.of(worse), 0.05, new PrintStream(bytes, true, StandardCharsets.UTF_8)));
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("0.801 [") && text.contains("0.901 [") && text.contains("6 pairs"), text);
    }
}
