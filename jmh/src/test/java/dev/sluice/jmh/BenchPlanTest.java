package dev.sluice.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.InvalidParameterException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The matrices of scripts/bench.sh. */
class BenchPlanTest {
    private static List<String> plan(String... args) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        assertEquals(0, BenchPlan.run(Arrays.asList(args), new PrintStream(bytes, true, StandardCharsets.UTF_8)));
        return Arrays.asList(bytes.toString(StandardCharsets.UTF_8).split("\n"));
    }

    @Test
    void theSeedPresetMeasuresTheMachinesSpreadThenEverySizeWithTheRawWriteAndFourStrategies() {
        List<String> lines = plan("--preset", "seed");
        assertTrue(lines.get(0).startsWith("# seed: sizes small,medium,large,xlarge,xxlarge;"), lines.get(0));
        List<String> configs = lines.stream().skip(1).map(l -> l.split("\\|")[0]).collect(Collectors.toList());
        assertEquals("noise-floor", configs.get(0));
        assertEquals(1 + 5 * 5, configs.size(), String.valueOf(configs));
        assertEquals(List.of("small-per-batch", "small-buffered", "small-async", "small-async_skipMerge_true",
                "small-raw"), configs.subList(1, 6));
        String raw = lines.stream().filter(l -> l.startsWith("small-raw|")).findFirst().orElseThrow();
        assertTrue(raw.contains("RawWriteBenchmark -p fileBytes=@wave.dataBytesPerTask:small-per-batch "), raw);
        String noise = lines.get(1).split("\\|")[2];
        assertTrue(noise.startsWith("NoiseFloorBenchmark -p tasks=") && noise.contains("-wi 1 -i 5"), noise);
        String skipMerge = lines.stream().filter(l -> l.startsWith("xxlarge-async_skipMerge_true|")).findFirst()
                .orElseThrow();
        assertTrue(skipMerge.contains("-p memoryLimit="), "upstream's skip-merge needs a limit: " + skipMerge);
        assertTrue(skipMerge.contains("-p scale=seed-equivalent"), skipMerge);
    }

    @Test
    void theBalancePresetMapsFourBandwidthsTwoDirtyCachesAndThreeSizesPerSlot() {
        List<String> lines = plan("--preset", "balance");
        assertTrue(lines.get(0).startsWith("# balance: sizes small,large,xxlarge;") && lines.get(0).contains("scale 0.05"),
                lines.get(0));
        List<String> devices = lines.stream().skip(1).map(l -> {
            int at = l.indexOf("-p device=");
            return at < 0 ? "native" : l.substring(at + "-p device=".length()).split(" ")[0];
        }).distinct().collect(Collectors.toList());
        assertEquals(List.of("per-slot:write=25000000:dirty=250000000", "per-slot:write=25000000:dirty=1000000000",
                "per-slot:write=50000000:dirty=250000000", "per-slot:write=50000000:dirty=1000000000",
                "per-slot:write=100000000:dirty=250000000", "per-slot:write=100000000:dirty=1000000000", "native"),
                devices);
        // Every device: three sizes x (four strategies and the raw write).
        assertEquals(7 * 3 * 5, lines.size() - 1);
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("xxlarge-per-slot_write_25000000_dirty_1000000000-async|")
                && l.contains("ShuffleWriteBenchmark -p strategy=async")), String.valueOf(lines));
    }

    @Test
    void anEmulatedDeviceGoesToEveryConfigurationAndTheSeedPresetRunsAtAQuarterOnIt() {
        List<String> lines = plan("--preset", "seed", "--device", "seed-ssd");
        assertTrue(lines.get(0).contains("scale 0.25 (on an emulated device") && lines.get(0).endsWith("device seed-ssd"),
                lines.get(0));
        for (String line : lines.subList(2, lines.size())) {
            assertTrue(line.contains(" -p device=seed-ssd") && line.contains("-p scale=0.25"), line);
        }
        InvalidParameterException e = assertThrows(InvalidParameterException.class,
                () -> plan("--preset", "seed", "--device", "floppy"));
        assertEquals("--device", e.parameter());
    }

    @Test
    void theSmokePresetStaysSmall() {
        List<String> lines = plan("--preset", "smoke");
        assertEquals(1 + 5, lines.size(), String.valueOf(lines));
        assertTrue(lines.stream().noneMatch(l -> l.startsWith("noise-floor")), String.valueOf(lines));
    }

    @Test
    void syncPutsTheDiskInEveryWriteAndRawWaveButNotInTheNoiseFloor() {
        List<String> lines = plan("--preset", "seed", "--sync", "true");
        assertTrue(lines.get(0).contains("fsync at every commit;"), lines.get(0));
        for (String line : lines.subList(1, lines.size())) {
            assertEquals(!line.startsWith("noise-floor|"), (line + " ").contains(" -p sync=true "), line);
        }
        assertTrue(plan("--preset", "seed").stream().noneMatch(l -> l.contains("sync=true")), "sync is off by default");
        InvalidParameterException e = assertThrows(InvalidParameterException.class,
                () -> plan("--preset", "seed", "--sync", "maybe"));
        assertEquals("--sync", e.parameter());
        assertEquals("maybe", e.value());
    }

    @Test
    void aStrategyThatCannotRunEvenWithTheMachinesMemoryIsRefusedBeforeAnyFork() {
        InvalidParameterException e = assertThrows(InvalidParameterException.class,
                () -> plan("--preset", "seed", "--strategies", "buffered:initialPartial=256m:maxPartial=64m"));
        assertEquals("--strategies", e.parameter());
    }

    @Test
    void aBadOptionIsRefusedNamingIt() {
        InvalidParameterException e = assertThrows(InvalidParameterException.class,
                () -> plan("--preset", "seed", "--iterations", "0"));
        assertEquals("--iterations", e.parameter());
        assertEquals("0", e.value());
    }
}
