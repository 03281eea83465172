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
