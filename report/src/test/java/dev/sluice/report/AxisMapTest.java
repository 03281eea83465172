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

/** A run along the partition or memory axis: a page per axis with more than one point, in the axis's order. */
class AxisMapTest {
    private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G'};

    @TempDir
    Path dir;

    /** Five waves around {@code score}, one apart, with the counters of a wave. */
    private static String row(String partitions, String limit, String strategy, double score, double openFiles) {
        String runs = String.format(Locale.ROOT, "%s,%s,%s,%s,%s", score - 1, score, score + 1, score, score);
        return String.format(Locale.ROOT, "{\"benchmark\":\"dev.sluice.jmh.write.ShuffleWriteBenchmark.wave\","
                + "\"params\":{\"partitions\":\"%s\",\"memoryLimit\":\"%s\",\"size\":\"small\",\"strategy\":\"%s\","
                + "\"tasks\":\"2\",\"scale\":\"0.25\"},"
                + "\"primaryMetric\":{\"score\":%s,\"scoreUnit\":\"ms/op\",\"rawData\":[[%s]]},"
                + "\"secondaryMetrics\":{\"io.peakOpenFiles\":{\"score\":%s,\"scoreUnit\":\"files\",\"rawData\":[[%s]]},"
                + "\"io.spilledBytes\":{\"score\":%s,\"scoreUnit\":\"B/task\",\"rawData\":[[%s]]}}}", partitions,
                limit, strategy, score, runs, openFiles, openFiles, 2097152, 2097152);
    }

    @Test
    void thePartitionPageSortsItsPointsByCountRanksTheStrategiesAndShowsWhoDidNotRun() throws Exception {
        List<String> rows = new ArrayList<>();
        rows.add(row("5000", "none", "per-batch", 900, 10001));
        rows.add(row("5000", "none", "sort", 300, 3));
        rows.add(row("200", "none", "per-batch", 100, 401));
        rows.add(row("200", "none", "sort", 120, 3));
        rows.add(row("20000", "none", "sort", 500, 3));
        Path json = Files.writeString(dir.resolve("result.json"), "[" + String.join(",", rows) + "]");
        List<Path> pages = AxisMap.write(JmhResults.read(json), dir.resolve("out"), "result.json");
        assertEquals(List.of(dir.resolve("out").resolve("partitions.md")), pages, "one axis with more than one point");
        String text = Files.readString(pages.get(0));
        int at200 = text.indexOf("| 200 | 100 ± ");
        int at5000 = text.indexOf("| 5000 | 900 ± ");
        int at20000 = text.indexOf("| 20000 | - | 500 ± 3 (the others against it) | sort |");
        assertTrue(at200 > 0 && at5000 > at200 && at20000 > at5000, text);
        assertTrue(text.contains("| 200 | 100 ± 3 | 120 ms, -16.7% [") && text.contains("per-batch < sort |"), text);
        assertTrue(text.contains("| 5000 | 900 ± 3 | 300 ms, +200.0% [") && text.contains("sort < per-batch |"), text);
        assertTrue(text.contains("| per-batch | 5000 | 10001 | - | - | - | - | 2 | - |"), text);
        assertArrayEquals(PNG, Arrays.copyOf(Files.readAllBytes(dir.resolve("out").resolve(
                "axis-partitions-small.png")), 4));
    }

    @Test
    void strategiesThatMerelyRunWithDifferentLimitsMakeNoAxis() throws Exception {
        List<String> rows = new ArrayList<>();
        rows.add(row("200", "none", "per-batch", 100, 401));
        rows.add(row("200", "machine", "async:skipMerge=true", 90, 3));
        Path json = Files.writeString(dir.resolve("result.json"), "[" + String.join(",", rows) + "]");
        assertEquals(List.of(), AxisMap.write(JmhResults.read(json), dir.resolve("out"), "result.json"));
    }

    @Test
    void theMemoryPageSortsLimitsBySizeWithNoLimitLast() throws Exception {
        List<String> rows = new ArrayList<>();
        rows.add(row("200", "none", "per-batch", 100, 401));
        rows.add(row("200", "64m", "per-batch", 110, 401));
        rows.add(row("200", "1g", "per-batch", 105, 401));
        Path json = Files.writeString(dir.resolve("result.json"), "[" + String.join(",", rows) + "]");
        List<Path> pages = AxisMap.write(JmhResults.read(json), dir.resolve("out"), "result.json");
        assertEquals(List.of(dir.resolve("out").resolve("memory.md")), pages);
        String text = Files.readString(pages.get(0));
        int m64 = text.indexOf("| 64m | 110");
        int g1 = text.indexOf("| 1g | 105");
        int none = text.indexOf("| none | 100");
        assertTrue(m64 > 0 && g1 > m64 && none > g1, text);
    }
}
