package dev.sluice.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The crossover map: balances per slot from the device parameter, improvements with intervals, the crossover. */
class BalanceMapTest {
    private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G'};

    @TempDir
    Path dir;

    /** Five waves around {@code score}, {@code spread} apart: the error comes from them. */
    private static String row(String device, String size, String strategy, double score, double spread) {
        String runs = String.format(Locale.ROOT, "%s,%s,%s,%s,%s", score - spread, score, score + spread, score, score);
        return String.format(Locale.ROOT, "{\"benchmark\":\"dev.sluice.jmh.write.ShuffleWriteBenchmark.wave\","
                + "\"params\":{\"device\":\"%s\",\"size\":\"%s\",\"strategy\":\"%s\",\"tasks\":\"2\",\"scale\":\"0.05\"},"
                + "\"primaryMetric\":{\"score\":%s,\"scoreUnit\":\"ms/op\",\"rawData\":[[%s]]},"
                + "\"secondaryMetrics\":{}}", device, size, strategy, score, runs);
    }

    @Test
    void eachBalanceGetsItsPerSlotFiguresImprovementsAndCrossover() throws Exception {
        // 25 MB/s and 1 GB per slot for 2 tasks at scale 0.05: write 50 MB/s, dirty 2 x 1 GB x 0.05 = 0.1 GB.
        String slow = "emulated:write=50000000/s:dirty=100000000";
        List<String> rows = new ArrayList<>();
        // per-batch wins at small, buffered at large and xxlarge (whole interval above 0).
        rows.add(row(slow, "small", "per-batch", 100, 1));
        rows.add(row(slow, "small", "buffered", 120, 1));
        rows.add(row(slow, "large", "per-batch", 300, 1));
        rows.add(row(slow, "large", "buffered", 200, 1));
        rows.add(row(slow, "xxlarge", "per-batch", 600, 1));
        rows.add(row(slow, "xxlarge", "buffered", 300, 1));
        rows.add(row("native", "small", "per-batch", 50, 1));
        rows.add(row("native", "small", "buffered", 60, 1));
        rows.add(row("native", "xxlarge", "per-batch", 200, 40));
        rows.add(row("native", "xxlarge", "buffered", 190, 40));
        Path json = Files.writeString(dir.resolve("result.json"), "[" + String.join(",", rows) + "]");
        Path md = BalanceMap.write(JmhResults.read(json), dir.resolve("out"), "result.json");
        String text = Files.readString(md);
        assertTrue(text.contains("| 25 MB/s and 1.00 GB dirty cache per slot | xxlarge | 600 ± 3 | +100.0% ["),
                text);
        assertTrue(text.contains("| 25 MB/s and 1.00 GB dirty cache per slot | from large |"), text);
        assertTrue(text.contains("| native disk, the kernel's own dirty limits | none |"), text);
        for (String png : List.of("balance-25MBps-1.00GB.png", "balance-native.png")) {
            assertArrayEquals(PNG, Arrays.copyOf(Files.readAllBytes(dir.resolve("out").resolve(png)), 4), png);
        }
    }

    /**
     * One strategy's paired waves on a balance's device, with the figures the fluid model takes: the device's rate and
     * cache, the task rate it was set from, the map output per task and the amplification.
     */
    private static String paired(String device, String size, String strategy, List<Double> waves, double dataBytes,
                                 double amplification, double atCommit) {
        String runs = waves.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(","));
        double score = waves.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        return String.format(Locale.ROOT, "{\"benchmark\":\"dev.sluice.jmh.write.PairedWaveBenchmark.wave\","
                + "\"params\":{\"device\":\"%s\",\"size\":\"%s\",\"strategy\":\"%s\",\"tasks\":\"2\","
                + "\"scale\":\"0.25\",\"pairing\":\"rounds\",\"strategies\":\"per-batch+buffered\"},"
                + "\"primaryMetric\":{\"score\":%s,\"scoreUnit\":\"ms/op\",\"rawData\":[[%s]]},"
                + "\"secondaryMetrics\":{%s,%s,%s,%s,%s,%s}}", device, size, strategy, score, runs,
                metric("device.writeMBps", 10), metric("device.dirtyMB", 50), metric("device.taskRateMBps", 20),
                metric("wave.dataBytesPerTask", dataBytes), metric("io.amplification", amplification),
                metric("io.atCommitShare", atCommit));
    }

    private static String metric(String key, double value) {
        return String.format(Locale.ROOT, "\"%s\":{\"score\":%s,\"rawData\":[[%s]]}", key, value, value);
    }

    @Test
    void aBalanceIsDrawnAsDiskOverTaskRateWithTheFluidModelBesideEachPairedImprovement() throws Exception {
        // Disk 0.8 x the task rate, 1 GB per slot. The run's own figures (in MB): a device of 10 MB/s and 50 MB for
        // 2 tasks at 20 MB/s each. Large (100 MB a task, made in 5 s): per-batch streams its first copies (2 x 100
        // MB), which the disk holds back until 15 s, then its copies at commit (200 MB) fit as the disk drains: 35 s
        // in all, (400 - 50) / 10. Buffered makes its output in memory (5 s), then writes 2 x 100 MB at once into the
        // empty cache: (200 - 50) / 10 = 15 s more, 20 s. The model's improvement 35 / 20 - 1 = +75.0%. Small (10 MB a
        // task): both 0.5 s, the model's improvement 0.
        String device = "per-slot:write=80m:dirty=1000000000:produce=100m";
        List<String> rows = new ArrayList<>();
        rows.add(paired(device, "small", "per-batch", List.of(100.0, 110.0, 90.0), 10e6, 2, 0.5));
        rows.add(paired(device, "small", "buffered", List.of(101.0, 109.0, 92.0), 10e6, 1, 1));
        rows.add(paired(device, "large", "per-batch", List.of(300.0, 330.0, 270.0), 100e6, 2, 0.5));
        rows.add(paired(device, "large", "buffered", List.of(150.0, 163.0, 136.0), 100e6, 1, 1));
        Path json = Files.writeString(dir.resolve("result.json"), "[" + String.join(",", rows) + "]");
        Path md = BalanceMap.write(JmhResults.read(json), dir.resolve("out"), "result.json");
        String text = Files.readString(md);
        String balance = "disk 0.80 x the task rate, 1.00 GB dirty cache per slot";
        assertTrue(text.contains("| " + balance + " | large | 300 ± "), text);
        assertTrue(text.contains("| +75.0% |"), text);
        assertTrue(text.contains("| " + balance + " | small | 100 ± "), text);
        assertTrue(text.contains("| +0.0% |"), text);
        assertTrue(text.contains("| " + balance + " | from large (model: from large) |"), text);
        // Each strategy's wave over the model's: per-batch 300 ms against 35 s, buffered 149.7 against 20 s.
        assertTrue(text.contains("| " + balance + " | large | 300 / 35000 = 0.01 | 150 / 20000 = 0.01 |"), text);
        assertArrayEquals(PNG, Arrays.copyOf(Files.readAllBytes(dir.resolve("out").resolve("balance-0.80x-1.00GB.png")),
                4));
        // The paired interval: each round's ratio, not the waves' spread across rounds.
        List<JmhResults.Row> read = JmhResults.read(json);
        BalanceMap.Cell cell = BalanceMap.cell(read.get(2), read.get(3));
        assertTrue(cell.paired && cell.faster(), "the rounds' ratios all near 2: " + cell.low);
        assertEquals(35.0 / 20 - 1, cell.model, 1e-9);
    }

    @Test
    void anImprovementWithinTheErrorsIsNoCrossover() {
        JmhResults.Row base = JmhResults.readRow("per-batch", List.of(160.0, 200.0, 240.0, 200.0, 200.0));
        JmhResults.Row row = JmhResults.readRow("buffered", List.of(150.0, 190.0, 230.0, 190.0, 190.0));
        BalanceMap.Cell cell = BalanceMap.cell(base, row);
        // the ratio of the geometric means: the interval is taken on the logarithms of the waves' times
        assertEquals(geometricMean(base.runs) / geometricMean(row.runs) - 1, cell.improvement, 1e-9);
        assertTrue(cell.low < 0 && cell.high > 0 && !cell.faster());
    }

    private static double geometricMean(List<Double> runs) {
        return Math.exp(runs.stream().mapToDouble(Math::log).average().orElseThrow());
    }
}
