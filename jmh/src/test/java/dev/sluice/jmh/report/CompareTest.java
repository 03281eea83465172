package dev.sluice.jmh.report;

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
    private static final String WAVE = "dev.sluice.jmh.ShuffleWriteBenchmark.wave";

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
}
