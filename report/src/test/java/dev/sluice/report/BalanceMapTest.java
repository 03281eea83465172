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
