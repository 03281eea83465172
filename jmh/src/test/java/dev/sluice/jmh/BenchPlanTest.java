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
    private static final long GIB = 1L << 30;

    private static List<String> plan(String... args) {
        return plan(BenchPlan.Machine.current(), args);
    }

    private static List<String> plan(BenchPlan.Machine machine, String... args) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        assertEquals(0, BenchPlan.run(Arrays.asList(args), new PrintStream(bytes, true, StandardCharsets.UTF_8),
                machine));
        return Arrays.asList(bytes.toString(StandardCharsets.UTF_8).split("\n"));
    }

    @Test
    void theSeedPresetMeasuresTheMachinesSpreadThenEverySizeWithTheRawWriteAndFourStrategies() {
        List<String> lines = plan("--preset", "seed");
        assertTrue(lines.get(0).startsWith("# seed: sizes small,medium,large,xlarge,xxlarge (the preset's);"),
                lines.get(0));
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
        assertTrue(skipMerge.contains("-p memoryLimit=machine"), "upstream's skip-merge needs a limit: " + skipMerge);
        assertTrue(skipMerge.contains("-p scale=seed-equivalent"), skipMerge);
    }

    @Test
    void theBalancePresetMapsFourBandwidthsTwoDirtyCachesAndThreeSizesPerSlot() {
        List<String> lines = plan("--preset", "balance");
        assertTrue(lines.get(0).startsWith("# balance: sizes small,large,xxlarge (the preset's);")
                && lines.get(0).contains("scale 0.05 (the preset's)") && lines.get(0).endsWith("native (the preset's)"),
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
        assertTrue(lines.get(0).contains("scale 0.25 (on an emulated device")
                && lines.get(0).endsWith("device seed-ssd (given)"), lines.get(0));
        for (String line : lines.subList(2, lines.size())) {
            assertTrue(line.contains(" -p device=seed-ssd") && line.contains("-p scale=0.25"), line);
        }
        InvalidParameterException e = assertThrows(InvalidParameterException.class,
                () -> plan("--preset", "seed", "--device", "floppy"));
        assertEquals("--device", e.parameter());
    }

    @Test
    void skipMergesLimitReadsTheSameOnMachinesOfAnyMemorySoThatTheirResultsCompare() {
        List<String> small = plan(new BenchPlan.Machine(2, 24 * GIB), "--preset", "seed", "--tasks", "2");
        List<String> large = plan(new BenchPlan.Machine(2, 512 * GIB), "--preset", "seed", "--tasks", "2");
        assertEquals(small.subList(1, small.size()), large.subList(1, large.size()),
                "every configuration's JMH arguments are the same on both machines");
        assertTrue(small.stream().anyMatch(l -> l.endsWith(" -p memoryLimit=machine")), String.valueOf(small));
        assertTrue(small.stream().noneMatch(l -> l.matches(".*memoryLimit=[0-9].*")), String.valueOf(small));
        assertEquals(24 * GIB, MemoryLimit.parse("memoryLimit", "machine", 24 * GIB));
        assertEquals(512 * GIB, MemoryLimit.parse("memoryLimit", "machine", 512 * GIB));
        assertEquals(64L << 20, MemoryLimit.parse("memoryLimit", "64m", 24 * GIB));
        InvalidParameterException e = assertThrows(InvalidParameterException.class,
                () -> MemoryLimit.parse("memoryLimit", "lots", 24 * GIB));
        assertEquals("memoryLimit", e.parameter());
        assertTrue(e.allowed().contains("machine"), e.allowed());
    }

    @Test
    void theHeaderSaysWhereEachChoiceCameFromWithItsPlural() {
        BenchPlan.Machine twoProcessors = new BenchPlan.Machine(2, 24 * GIB);
        String smoke = plan(twoProcessors, "--preset", "smoke").get(0);
        assertTrue(smoke.startsWith("# smoke: size tiny (the preset's); 1 task at once (the preset's); scale 1 (the "
                + "preset's); strategies per-batch,buffered,async,async:skipMerge=true (the preset's); codec lz4-block "
                + "(the default); 0 warm-up waves (the preset's) and 1 measured wave (the preset's) per configuration"),
                smoke);
        String quick = plan(twoProcessors, "--preset", "quick", "--sizes", "tiny").get(0);
        assertTrue(quick.contains("; 2 tasks at once (one per processor: this machine has 2 processors);"), quick);
        assertTrue(quick.contains("size tiny (given)"), quick);
        assertTrue(quick.contains("1 warm-up wave of a quarter of every record (the preset's) and 3 measured waves "
                + "(the preset's)"), quick);
        String one = plan(new BenchPlan.Machine(1, 24 * GIB), "--preset", "quick", "--sizes", "tiny").get(0);
        assertTrue(one.contains("; 1 task at once (one per processor: this machine has 1 processor);"), one);
        String many = plan(new BenchPlan.Machine(64, 24 * GIB), "--preset", "quick", "--sizes", "tiny").get(0);
        assertTrue(many.contains("; 16 tasks at once (one per processor, at most 16: this machine has 64 "
                + "processors);"), many);
        String given = plan(twoProcessors, "--preset", "seed", "--sizes", "tiny", "--tasks", "3", "--warmups", "2",
                "--iterations", "2", "--strategies", "buffered", "--codec", "none", "--scale", "1").get(0);
        assertTrue(given.contains("; 3 tasks at once (given); scale 1 (given); strategy buffered (given); codec none "
                + "(given); 2 warm-up waves of a quarter of every record (given) and 2 measured waves (given) per "
                + "configuration"), given);
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
        assertTrue(lines.get(0).contains("fsync at every commit (given);"), lines.get(0));
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
