package dev.sluice.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The floor of a size (serialize + compress, and the raw write) in comparisons.json and the report: each strategy's
 * time over it, from synthetic JMH results laid out as the runner writes them.
 */
class FloorTest {
    private static final List<String> STRATEGIES = List.of("per-batch", "buffered", "ideal");
    private static final String FLOOR = "dev.sluice.jmh.write.FloorBenchmark.";
    private static final String RAW = "dev.sluice.jmh.write.RawWriteBenchmark.writeSequentially";
    private static final List<String> FLOOR_FIELDS = List.of("floorSerializeMs", "floorCompressMs", "floorRawWriteMs",
            "floorPacedWriteMs", "floorMs", "floorSumMs", "overFloor", "overFloorSum");

    /**
     * A paired tiny of per-batch (300 ms a wave), buffered (240) and ideal (150) in three rounds, its raw write (100
     * ms) and, with {@code floors}, its floor configuration (serialize 20 ms, compress 60 ms), as the plan names them.
     */
    private static RunDirectory run(Path dir, boolean floors) throws IOException {
        return run(dir, floors, false);
    }

    /** {@link #run(Path, boolean)}, with {@code paced} also its paced write (130 ms), as the plan names it. */
    private static RunDirectory run(Path dir, boolean floors, boolean paced) throws IOException {
        Files.createDirectories(dir.resolve("runs"));
        double[][] t = new double[3][];
        for (int r = 0; r < 3; r++) {
            t[r] = new double[] {300, 240, 150};
        }
        new SyntheticResults().paired("tiny", STRATEGIES, "none", t).write(dir.resolve("runs/01-tiny-c1.json"));
        Map<String, String> params = Map.of("size", "tiny");
        new SyntheticResults().other(RAW, params, List.of(100.0, 100.0, 100.0))
                .write(dir.resolve("runs/02-tiny-raw.json"));
        List<RunDirectory.Config> configs = new java.util.ArrayList<>(List.of(
                new RunDirectory.Config("01-tiny", "tiny", 100, STRATEGIES, 3, params),
                new RunDirectory.Config("02-tiny-raw", "tiny-raw", 25, List.of(), 3, params)));
        if (floors) {
            new SyntheticResults().other(FLOOR + "compress", params, List.of(60.0, 60.0, 60.0))
                    .other(FLOOR + "serialize", params, List.of(20.0, 20.0, 20.0))
                    .write(dir.resolve("runs/03-tiny-floor.json"));
            configs.add(new RunDirectory.Config("03-tiny-floor", "tiny-floor", 25, List.of(), 3, params));
        }
        if (paced) {
            new SyntheticResults().other(RAW, Map.of("size", "tiny", "pace", "41943040"), List.of(130.0, 130.0, 130.0))
                    .write(dir.resolve("runs/04-tiny-paced.json"));
            configs.add(new RunDirectory.Config("04-tiny-paced", "tiny-paced", 25, List.of(), 3, params));
        }
        return new RunDirectory(dir, PairedRun.ROUNDS, configs);
    }

    private static JsonNode comparisons(Path dir) throws IOException {
        return new ObjectMapper().readTree(dir.resolve("comparisons.json").toFile());
    }

    private static String report(Path dir) throws IOException {
        Path report = new SeedReport(JmhResults.read(dir.resolve("jmh-result.json")), Environment.read(
                dir.resolve("none.json")), "jmh-result.json", null).write(dir.resolve("report"));
        return Files.readString(report, StandardCharsets.UTF_8);
    }

    @Test
    void theFloorIsTheSlowerOfSerializePlusCompressAndTheRawWriteAndTheirSumIsGivenToo() throws Exception {
        List<JmhResults.Row> rows = JmhResults.read(new SyntheticResults()
                .other(FLOOR + "serialize", Map.of("size", "small"), List.of(30.0, 30.0))
                .other(FLOOR + "compress", Map.of("size", "small"), List.of(90.0, 90.0))
                .other(RAW, Map.of("size", "small"), List.of(50.0, 70.0))
                .other(RAW, Map.of("size", "tiny"), List.of(500.0))
                .write(Files.createTempFile("floor", ".json")));
        Floor small = Floor.of(rows, "small").orElseThrow();
        assertEquals(120.0, small.cpuMs(), 1e-9);
        assertEquals(120.0, small.floorMs(), 1e-9, "serialize + compress is the slower");
        assertEquals(180.0, small.sumMs(), 1e-9);
        assertEquals("serialize + compress", small.slower());
        assertEquals(2.0, small.over(List.of(120.0, 480.0)), 1e-9, "the geometric mean, 240 ms, over 120");
        assertTrue(Floor.of(rows, "tiny").isEmpty(), "a raw write alone is no floor");
        assertTrue(small.paced.isEmpty() && Double.isNaN(small.pacedWriteMs), "no paced write measured");
    }

    @Test
    void aPacedWriteOfTheSameSizeAndDeviceIsTheFloorWhereItIsTheSlowestAndNeverTakenForTheRawWrite() throws Exception {
        Map<String, String> ssd = Map.of("size", "small", "device", "seed-ssd");
        List<JmhResults.Row> rows = JmhResults.read(new SyntheticResults()
                .other(FLOOR + "serialize", Map.of("size", "small"), List.of(30.0, 30.0))
                .other(FLOOR + "compress", Map.of("size", "small"), List.of(90.0, 90.0))
                .other(RAW, Map.of("size", "small", "device", "seed-ssd", "pace", "1000000000"), List.of(900.0))
                .other(RAW, Map.of("size", "small", "device", "seed-ssd", "pace", "none"), List.of(500.0))
                .other(RAW, Map.of("size", "small", "device", "native", "pace", "1000000000"), List.of(999.0))
                .write(Files.createTempFile("floor", ".json")));
        Floor small = Floor.of(rows, "small").orElseThrow();
        assertEquals(ssd.get("device"), small.raw.param("device"));
        assertEquals(500.0, small.rawWriteMs, 1e-9, "the unpaced row, though the paced one comes first");
        assertEquals(900.0, small.pacedWriteMs, 1e-9, "the paced write of the raw write's device, not native's");
        assertEquals(900.0, small.floorMs(), 1e-9);
        assertEquals("paced write", small.slower());
        assertEquals(620.0, small.sumMs(), 1e-9, "the sum stays the CPU work and the raw write");
        assertEquals(500.0, Floor.rawWrite(rows, "small").orElseThrow().score, 1e-9);
    }

    @Test
    void comparisonsJsonAndTheReportCarryThePacedWriteAndTheFloorItMakes(@TempDir Path dir) throws Exception {
        run(dir, true, true).writeResults();
        for (JsonNode row : comparisons(dir)) {
            if (row.path("figure").asText().equals(Comparisons.MAPPER)) {
                assertEquals(130.0, row.path("floorPacedWriteMs").asDouble(), 1e-9, row.toString());
                assertEquals(130.0, row.path("floorMs").asDouble(), 1e-9, row.toString());
                assertEquals(180.0, row.path("floorSumMs").asDouble(), 1e-9, row.toString());
            }
        }
        String text = report(dir);
        assertTrue(text.contains("| tiny | 20.0 ± 0.0 | 60.0 ± 0.0 | 100.0 ± 0.0 | 130.0 ± 0.0 | 130.0 (paced write) "
                + "| 180.0 |"), text);
        assertTrue(text.contains("| tiny | raw write | 0.10, 0.10, 0.10 |"), "the raw write's waves, not the paced's");
        assertTrue(text.contains("| tiny | ideal | 150.0 ms | 1.15x | 0.83x |"), text);
    }

    @Test
    void everyMapperStageRowOfComparisonsJsonCarriesTheFloorAndTheStrategysTimeOverIt(@TempDir Path dir)
            throws Exception {
        run(dir, true).writeResults();
        JsonNode all = comparisons(dir);
        assertEquals(8, all.size(), "2 against per-batch and 2 against ideal, for both figures");
        int mapper = 0;
        for (JsonNode row : all) {
            if (!row.path("figure").asText().equals(Comparisons.MAPPER)) {
                FLOOR_FIELDS.forEach(f -> assertTrue(row.has(f) && row.get(f).isNull(), f + " of " + row));
                continue;
            }
            mapper++;
            assertEquals(20.0, row.path("floorSerializeMs").asDouble(), 1e-9);
            assertEquals(60.0, row.path("floorCompressMs").asDouble(), 1e-9);
            assertEquals(100.0, row.path("floorRawWriteMs").asDouble(), 1e-9);
            assertEquals(100.0, row.path("floorMs").asDouble(), 1e-9, "the raw write is the slower");
            assertEquals(180.0, row.path("floorSumMs").asDouble(), 1e-9);
            double time = Map.of("per-batch", 300.0, "buffered", 240.0, "ideal", 150.0)
                    .get(row.path("strategy").asText());
            assertEquals(time / 100, row.path("overFloor").asDouble(), 1e-9, row.toString());
            assertEquals(time / 180, row.path("overFloorSum").asDouble(), 1e-9, row.toString());
            assertTrue(row.has("ratio") && row.has("pairRatios") && row.has("withinTarget"), "the keys of before");
        }
        assertEquals(4, mapper);
    }

    @Test
    void withoutAFloorConfigurationTheFloorFieldsAreNull(@TempDir Path dir) throws Exception {
        run(dir, false).writeResults();
        for (JsonNode row : comparisons(dir)) {
            FLOOR_FIELDS.forEach(f -> assertTrue(row.has(f) && row.get(f).isNull(), f + " of " + row));
        }
    }

    @Test
    void theReportGivesEachStrategyAsAMultipleOfTheFloorOfItsSumOfPerBatchAndOfIdeal(@TempDir Path dir)
            throws Exception {
        run(dir, true).writeResults();
        String text = report(dir);
        assertTrue(text.contains("### 3.9 Against the floor"), text);
        assertTrue(text.contains("| tiny | 20.0 ± 0.0 | 60.0 ± 0.0 | 100.0 ± 0.0 | n/a | 100.0 (raw write) | 180.0 |"),
                text);
        assertTrue(text.contains("| config | strategy | mapper stage | over the floor | over the sum | over per-batch "
                + "| over ideal |"), text);
        assertTrue(text.contains("| tiny | buffered | 240.0 ms | 2.40x | 1.33x | 0.80x | 1.60x |"), text);
        assertTrue(text.contains("| tiny | per-batch | 300.0 ms | 3.00x | 1.67x | - | 2.00x |"), text);
        assertTrue(text.contains("- Against the floor (section 3.9: the slowest of serialize + compress on every core, "
                + "the raw write and the paced write), the fastest strategy at each size: tiny ideal 1.50x the floor "
                + "(0.83x the sum)."),
                text);
        assertTrue(text.contains("### 3.8 Against the raw-write reference"), "the sections before stay: " + text);
    }

    @Test
    void aRunWithoutFloorsRendersWithoutTheSectionAndAnLz4FrameRunSaysWhyItHasNone(@TempDir Path dir)
            throws Exception {
        run(dir, false).writeResults();
        String text = report(dir);
        assertFalse(text.contains("Against the floor"), text);
        assertFalse(text.contains("No floor"), text);

        Path frame = Files.createDirectories(dir.resolve("frame"));
        Map<String, String> params = Map.of("size", "tiny", "strategy", "per-batch", "codec", "lz4-frame");
        new SyntheticResults().other("dev.sluice.jmh.write.ShuffleWriteBenchmark.wave", params, List.of(300.0, 310.0))
                .other(RAW, Map.of("size", "tiny", "codec", "lz4-frame"), List.of(100.0, 100.0))
                .write(frame.resolve("jmh-result.json"));
        String framed = report(frame);
        assertTrue(framed.contains("Against the floor\n\nNo floor: the run's codec, lz4-frame, compresses Arrow's "
                + "buffers inside each record"), framed);
    }
}
