package dev.sluice.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The statistics behind the report's comparisons, and the report made from results of one, two and five waves. */
class SeedReportTest {
    /** Per-batch's waves and reads (ms), buffered's, as many as a test asks for. */
    private static final List<Double> PER_BATCH = List.of(330.0, 335.0, 328.0, 333.0, 331.0);
    private static final List<Double> BUFFERED = List.of(250.0, 254.0, 249.0, 252.0, 251.0);
    private static final List<Double> READS = List.of(30.0, 31.0, 29.0, 30.0, 32.0);

    /** The report of a result in which each configuration has {@code waves} measured waves. */
    private static String report(Path dir, int waves) throws IOException {
        Files.createDirectories(dir);
        Path result = new SyntheticResults()
                .wave("tiny", "per-batch", PER_BATCH.subList(0, waves), READS.subList(0, waves))
                .wave("tiny", "buffered", BUFFERED.subList(0, waves), READS.subList(0, waves))
                .write(dir.resolve("jmh-result.json"));
        Path report = new SeedReport(JmhResults.read(result), Environment.read(dir.resolve("none.json")),
                "jmh-result.json").write(dir.resolve("report"));
        return Files.readString(report, StandardCharsets.UTF_8);
    }

    /** The first row of the table under the heading that starts with {@code heading}. */
    private static String firstRow(String report, String heading) {
        int at = report.indexOf(heading);
        assertTrue(at >= 0, heading + " missing");
        int separator = report.indexOf("|---", at);
        int start = report.indexOf('\n', separator) + 1;
        return report.substring(start, report.indexOf('\n', start));
    }

    /** The seconds of each strategy's cell in a table row: "| tiny | 0.36 ± 0.01 s | ...". */
    private static List<Double> seconds(String row) {
        List<Double> out = new ArrayList<>();
        Matcher m = Pattern.compile("\\| ([0-9.]+) (± [0-9.]+ )?s").matcher(row);
        while (m.find()) {
            out.add(Double.parseDouble(m.group(1)));
        }
        return out;
    }

    @Test
    void oneWaveStatesNoErrorNoTestAndDrawsNoWhisker(@TempDir Path dir) throws Exception {
        String report = report(dir, 1);
        String mapper = firstRow(report, "### 3.3 Mapper stage time");
        assertTrue(mapper.contains("0.33 s (no error: one wave)"), mapper);
        assertFalse(mapper.contains("±"), "one wave has no error: " + mapper);
        assertTrue(mapper.contains("(no error: one wave)"), "nor an improvement's: " + mapper);
        assertTrue(report.contains("Precision: no error: one measured wave per configuration"), report);
        assertTrue(report.contains("No bar has a whisker: every configuration has one measured wave"), report);
        assertFalse(report.contains("within 5%"), "no error can be within anything: " + report);
        assertTrue(report.contains("no Welch's test at the largest size"), report);
        assertTrue(firstRow(report, "### 3.5 Precision").contains("no error (one wave) / no error (one wave)"),
                report);
    }

    @Test
    void twoWavesHaveAnErrorAndWelchsTest(@TempDir Path dir) throws Exception {
        String report = report(dir, 2);
        String mapper = firstRow(report, "### 3.3 Mapper stage time");
        // Student's t for 2 waves (one degree of freedom) at 99.9%: 636.6 x (5 / sqrt 2) / sqrt 2 = 1591.5 ms.
        assertTrue(mapper.contains("| 0.33 ± 1.59 s ⚠ |"), mapper);
        assertTrue(mapper.matches(".*[+]24\\.[0-9]% ± [0-9.]+, p [0-9.<]+.*"), "an improvement with error and p: "
                + mapper);
        assertFalse(report.contains("no error"), "two waves are not one: " + report);
        assertTrue(report.contains("from 2 measured waves"), report);
        assertTrue(report.contains("**Errors above 5% of the value:**"), "2 waves give a wide error: " + report);
        assertFalse(report.contains("No bar has a whisker"), report);
    }

    @Test
    void fiveWavesGiveJmhsOwnErrorAndASignificantDifference(@TempDir Path dir) throws Exception {
        List<Double> waves = PER_BATCH;
        double mean = waves.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        double sd = Math.sqrt(waves.stream().mapToDouble(v -> (v - mean) * (v - mean)).sum() / 4);
        // t(0.9995, 4 degrees of freedom) = 8.6103, as JMH's error for five runs.
        assertEquals(8.6103 * sd / Math.sqrt(5), JmhResults.error(waves), 1e-3);
        String report = report(dir, 5);
        String mapper = firstRow(report, "### 3.3 Mapper stage time");
        assertTrue(mapper.contains(String.format(java.util.Locale.ROOT, "| %.2f ± %.2f s |", mean / 1000,
                JmhResults.error(waves) / 1000)), mapper);
        assertTrue(mapper.contains("**+24."), "significant, so in bold: " + mapper);
        assertTrue(report.contains("buffered is significantly faster than per-batch at every size"), report);
        assertTrue(report.contains("Every error drawn is within 5% of its value."), report);
    }

    @Test
    void queryTotalIsNeverShorterThanTheMapperStageItContains(@TempDir Path dir) throws Exception {
        for (int waves : List.of(1, 2, 5)) {
            String report = report(dir.resolve("w" + waves), waves);
            List<Double> query = seconds(firstRow(report, "### 3.2 Query total time"));
            List<Double> mapper = seconds(firstRow(report, "### 3.3 Mapper stage time"));
            assertEquals(2, query.size(), report);
            for (int s = 0; s < 2; s++) {
                assertTrue(query.get(s) >= mapper.get(s), "query total " + query + " against mapper stage " + mapper);
            }
            assertTrue(report.contains("Clock: JMH's clock for the wave (the mapper stage's figure) plus the reduce "
                    + "side's read"), "each table names its clock");
        }
        Path result = new SyntheticResults().wave("tiny", "per-batch", PER_BATCH, READS)
                .write(dir.resolve("one.json"));
        JmhResults.Row row = JmhResults.read(result).get(0);
        assertTrue(row.metric("query.totalMillis").getAsDouble() < row.score, "the secondary metric's other clock "
                + "is shorter here, as in the user's run");
        assertEquals(SyntheticResults.sum(PER_BATCH, READS), Figure.queryRuns(row));
    }

    @Test
    void aSeriesGetsWhiskersOnlyWhereEveryBarHasAnError() {
        double[][] values = {{1, 2}, {1, 2}, {1, Double.NaN}};
        double[][] errors = {{0.1, 0.2}, {0.1, Double.NaN}, {0.1, Double.NaN}};
        org.knowm.xchart.CategoryChart chart = Charts.chart("t", "s", List.of("a", "b"), List.of("x", "y", "z"),
                values, errors);
        assertTrue(chart.getSeriesMap().get("x").getExtraValues() != null, "x has an error everywhere");
        assertTrue(chart.getSeriesMap().get("y").getExtraValues() == null, "y has a bar of one wave");
        assertTrue(chart.getSeriesMap().get("z").getExtraValues() == null, "z has a bar missing");
        assertTrue(Charts.chart("t", "s", List.of("a"), List.of("x"), new double[][] {{1}}, null).getSeriesMap()
                .get("x").getExtraValues() == null);
    }
    @Test
    void wavesThatDoNotOverlapDifferSignificantly() {
        double p = Stats.welchP(List.of(2.81, 2.93, 2.66, 2.67, 2.72), List.of(4.53, 3.84, 4.11, 4.24, 4.08));
        assertTrue(p < SeedReport.SIGNIFICANCE, "p = " + p);
    }

    @Test
    void wavesFromTheSameSpreadDoNotDifferSignificantly() {
        double p = Stats.welchP(List.of(11.84, 9.47, 10.40, 10.52, 10.32), List.of(11.43, 11.51, 11.01, 10.61, 9.47));
        assertTrue(p > SeedReport.SIGNIFICANCE, "p = " + p);
    }

    @Test
    void oneWaveHasNoTest() {
        assertTrue(Double.isNaN(Stats.welchP(List.of(1.0), List.of(2.0, 3.0))));
    }

    @Test
    void fiveWavesNeedAVariationOfAboutAQuarterOfTheTargetError() {
        // JMH's 99.9% error of 5 runs is t(0.9995, 4) / sqrt(5) = 3.85 coefficients of variation.
        assertEquals(2, Stats.runsFor(0.03, 0.0, JmhResults.CONFIDENCE), "an error needs two runs");
        assertTrue(Stats.runsFor(0.03, 0.038, JmhResults.CONFIDENCE) > 5, "3.8% variation cannot give 3% with 5 waves");
    }

    @Test
    void aPairedRunGetsItsImprovementsFromThePairsWithIntervalsAndASectionOfItsOwn(@TempDir Path dir)
            throws Exception {
        Files.createDirectories(dir.resolve("runs"));
        double[][] t = new double[5][];
        for (int r = 0; r < 5; r++) {
            // The machine drifts by 20% over the rounds; buffered takes 75% of per-batch's time, ideal 50%.
            double base = 300 * (1 + 0.05 * r);
            t[r] = new double[] {base, 0.75 * base * (1 + 0.003 * (r % 2)), 0.5 * base};
        }
        new SyntheticResults().paired("tiny", List.of("per-batch", "buffered", "ideal"), "none", t)
                .write(dir.resolve("runs/01-tiny-c1.json"));
        PairedDirectories.of(dir, "tiny", List.of("per-batch", "buffered", "ideal")).writeResults();
        Path report = new SeedReport(JmhResults.read(dir.resolve("jmh-result.json")), Environment.read(
                dir.resolve("none.json")), "jmh-result.json", null).write(dir.resolve("report"));
        String text = Files.readString(report, StandardCharsets.UTF_8);
        String mapper = firstRow(text, "### 3.3 Mapper stage time");
        assertTrue(mapper.contains("**+24.9% [+24.7, +25.2], 5 pairs (Welch p < 0.001)**"), mapper);
        assertTrue(mapper.contains("5 pairs (Welch p "), mapper);
        assertTrue(text.contains("### 3.5 Paired comparisons"), text);
        String paired = firstRow(text, "### 3.5 Paired comparisons");
        assertTrue(paired.startsWith("| tiny | per-batch | - | 2.000 [2.000, 2.000] (±0.0%) |"), paired);
        assertTrue(text.contains("Within 5% of their ratio: 4 of 4 mapper-stage comparisons"), text);
        assertTrue(text.contains("Paired: 4 of 4 mapper-stage comparisons (every strategy against per-batch and "
                + "against ideal, at every size) have a 99% interval within 5% of their ratio."), text);
        assertTrue(text.contains("buffered is faster than per-batch with 99% confidence at every size (paired "
                + "intervals), from tiny up"), text);
        assertTrue(text.contains("- Decided: 2 of 2 mapper-stage comparisons against per-batch (their 99% interval "
                + "excludes 1)."), text);
        assertTrue(Files.isRegularFile(dir.resolve("report/improvement.png")));
    }

    @Test
    void theFirstScreenSaysWhatDecidingAnUndecidedComparisonWouldTake(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("runs"));
        double[] ratios = {0.6, 1.3, 0.9};
        double[][] t = new double[ratios.length][];
        for (int r = 0; r < ratios.length; r++) {
            t[r] = new double[] {300, 300 * ratios[r]};
        }
        new SyntheticResults().paired("tiny", List.of("per-batch", "buffered"), "none", t)
                .write(dir.resolve("runs/01-tiny-c1.json"));
        PairedDirectories.of(dir, "tiny", List.of("per-batch", "buffered")).writeResults();
        Path report = new SeedReport(JmhResults.read(dir.resolve("jmh-result.json")), Environment.read(
                dir.resolve("none.json")), "jmh-result.json", null).write(dir.resolve("report"));
        String text = Files.readString(report, StandardCharsets.UTF_8);
        assertTrue(text.contains("- Decided: 0 of 1 mapper-stage comparisons against per-batch (their 99% interval "
                + "excludes 1); undecided:\n  - tiny `buffered`: "), text);
        assertTrue(text.contains(" after 3 pairs; deciding it would take about "), text);
    }

    @Test
    void anUnpairedRunIsComparedWithItsFirstStrategyInThePlansOrder(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir);
        // No per-batch: buffered comes first in the plan's order (StrategySets.SEED), then a strategy of its own.
        Path result = new SyntheticResults()
                .wave("tiny", "buffered:merge=gather", PER_BATCH, READS)
                .wave("tiny", "buffered", BUFFERED, READS)
                .write(dir.resolve("jmh-result.json"));
        String text = Files.readString(new SeedReport(JmhResults.read(result), Environment.read(
                dir.resolve("none.json")), "jmh-result.json").write(dir.resolve("report")), StandardCharsets.UTF_8);
        assertTrue(text.contains("| config | buffered | buffered:merge=gather | buffered:merge=gather vs buffered |"),
                text);
        assertFalse(text.contains("No crossover to find"), text);
        assertTrue(text.contains("At tiny, buffered:merge=gather's mapper stage time is **-"), text);
        assertTrue(text.contains("against buffered (significant)"), text);
    }

    @Test
    void aPairedRunIsComparedWithTheFirstOfItsStrategies(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir);
        List<String> strategies = List.of("buffered", "per-batch");
        Path result = new SyntheticResults()
                .pairedRow("tiny", "buffered", strategies, BUFFERED, READS)
                .pairedRow("tiny", "per-batch", strategies, PER_BATCH, READS)
                .write(dir.resolve("jmh-result.json"));
        String text = Files.readString(new SeedReport(JmhResults.read(result), Environment.read(
                dir.resolve("none.json")), "jmh-result.json", null).write(dir.resolve("report")),
                StandardCharsets.UTF_8);
        assertTrue(text.contains("| per-batch vs buffered |"), text);
        assertFalse(text.contains("vs per-batch"), text);
        assertTrue(text.contains("every strategy against buffered"), text);
    }

    @Test
    void aWriteOnAnEmulatedDeviceStandsBesideTheFluidModelAndOneThatDepartsIsWarnedAbout(@TempDir Path dir)
            throws Exception {
        String raw = "dev.sluice.jmh.write.RawWriteBenchmark.writeSequentially";
        Path result = new SyntheticResults()
                .wave("tiny", "per-batch", PER_BATCH, READS)
                .wave("tiny", "buffered", BUFFERED, READS)
                .other(raw, Map.of("size", "tiny", "device", "seed-ssd"), List.of(1000.0, 1000.0, 1000.0))
                .secondary("device.fluidMillis", List.of(500.0, 500.0, 500.0), "ms")
                .other(raw, Map.of("size", "tiny", "device", "seed-ssd", "pace", "41943040"),
                        List.of(510.0, 510.0, 510.0))
                .secondary("device.fluidMillis", List.of(500.0, 500.0, 500.0), "ms")
                .write(dir.resolve("jmh-result.json"));
        String report = Files.readString(new SeedReport(JmhResults.read(result), Environment.read(
                dir.resolve("none.json")), "jmh-result.json").write(dir.resolve("report")), StandardCharsets.UTF_8);
        String section = report.substring(report.indexOf("The emulated device against its model"));
        assertTrue(section.contains("| tiny | raw | 1.00 ± 0.00 s | 500.0 | 2.00 |"), section);
        assertTrue(section.contains("| tiny | paced at 41943040/s a thread | 0.51 ± 0.00 s | 500.0 | 1.02 |"), section);
        assertTrue(section.contains("more than 15% for tiny raw (2.00):"), section);
        assertFalse(section.contains("tiny paced at 41943040/s a thread (1.02)"), "within 15%: " + section);
        assertFalse(report(dir.resolve("native"), 5).contains("against its model"), "no device, no section");
    }
}
