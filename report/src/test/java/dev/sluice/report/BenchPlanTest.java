package dev.sluice.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.spi.InvalidParameterException;
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

    /** The plan's configuration lines, without its header lines. */
    private static List<String> configs(List<String> lines) {
        return lines.stream().filter(l -> !l.startsWith("#")).collect(Collectors.toList());
    }

    @Test
    void theSeedPresetPairsEverySizesFiveStrategiesInRoundsUnderAThirtyMinuteBudget() {
        List<String> lines = plan("--preset", "seed");
        assertTrue(lines.get(0).startsWith("# seed: sizes small,medium,large,xlarge,xxlarge (the preset's);"),
                lines.get(0));
        assertTrue(lines.get(1).startsWith("# paired rounds (the preset's): a size's strategies take turns wave by "
                + "wave in one fork"), lines.get(1));
        assertTrue(lines.get(1).endsWith("share of the 1800 s budget (the preset's) is spent"), lines.get(1));
        assertEquals("#% paired=rounds budget=1800", lines.get(2));
        List<String> configs = configs(lines).stream().map(l -> l.split("\\|")[0]).collect(Collectors.toList());
        assertEquals(List.of("noise-floor", "small", "small-raw", "medium", "medium-raw", "large", "large-raw",
                "xlarge", "xlarge-raw", "xxlarge", "xxlarge-raw"), configs);
        String small = configs(lines).get(1).split("\\|")[2];
        assertEquals("PairedWaveBenchmark -p strategies=per-batch+buffered+async+async:skipMerge=true+ideal -p "
                + "memoryLimit=none+none+none+machine+none -p size=small -p scale=seed-equivalent -p tasks="
                + Math.min(16, Runtime.getRuntime().availableProcessors()) + " -p codec=lz4-block -f 1 -foe true "
                + "-wi 5 -i 15", small, "one warm-up wave each and a first chunk of three rounds; skip-merge's limit");
        String raw = configs(lines).get(2);
        assertTrue(raw.contains("RawWriteBenchmark -p fileBytes=@wave.dataBytesPerTask:small "), raw);
        assertTrue(raw.endsWith("-wi 1 -i 5"), "what is not paired gets five waves: " + raw);
        String noise = configs(lines).get(0).split("\\|")[2];
        assertTrue(noise.startsWith("NoiseFloorBenchmark -p tasks=") && noise.contains("-wi 1 -i 5"), noise);
    }

    @Test
    void unpairedEachStrategyRunsInAForkOfItsOwnAsBefore() {
        List<String> lines = plan("--preset", "seed", "--paired", "off", "--budget", "none", "--iterations", "5");
        assertEquals("#% paired=off budget=none", lines.get(2));
        List<String> configs = configs(lines).stream().map(l -> l.split("\\|")[0]).collect(Collectors.toList());
        assertEquals(1 + 5 * 6, configs.size(), String.valueOf(configs));
        assertEquals(List.of("small-per-batch", "small-buffered", "small-async", "small-async_skipMerge_true",
                "small-ideal", "small-raw"), configs.subList(1, 7));
        String raw = lines.stream().filter(l -> l.startsWith("small-raw|")).findFirst().orElseThrow();
        assertTrue(raw.contains("RawWriteBenchmark -p fileBytes=@wave.dataBytesPerTask:small-per-batch "), raw);
        String skipMerge = lines.stream().filter(l -> l.startsWith("xxlarge-async_skipMerge_true|")).findFirst()
                .orElseThrow();
        assertTrue(skipMerge.contains("-p memoryLimit=machine"), "upstream's skip-merge needs a limit: " + skipMerge);
        assertTrue(skipMerge.contains("-p scale=seed-equivalent") && skipMerge.contains("-wi 1 -i 5"), skipMerge);
    }

    @Test
    void thePairedDesignAndTheBudgetAreChecked() {
        assertEquals("#% paired=forks budget=1800", plan("--preset", "seed", "--paired", "forks").get(2));
        assertEquals("#% paired=rounds budget=600", plan("--preset", "quick", "--budget", "10m").get(2));
        assertEquals("#% paired=rounds budget=3600", plan("--preset", "quick", "--budget", "1h").get(2));
        assertEquals("#% paired=rounds budget=none", plan("--preset", "seed", "--budget", "none").get(2));
        assertEquals("#% paired=off budget=none", plan("--preset", "tuning").get(2));
        InvalidParameterException e = assertThrows(InvalidParameterException.class,
                () -> plan("--preset", "seed", "--paired", "sometimes"));
        assertEquals("--paired", e.parameter());
        assertTrue(e.allowed().contains("rounds") && e.allowed().contains("forks") && e.allowed().contains("off"),
                e.allowed());
        e = assertThrows(InvalidParameterException.class, () -> plan("--preset", "seed", "--budget", "30x"));
        assertEquals("--budget", e.parameter());
        assertEquals("30x", e.value());
        e = assertThrows(InvalidParameterException.class, () -> plan("--preset", "tuning", "--budget", "30m"));
        assertEquals("--budget", e.parameter());
        e = assertThrows(InvalidParameterException.class,
                () -> plan("--preset", "seed", "--strategies", "buffered", "--paired", "rounds"));
        assertEquals("--strategies", e.parameter());
        List<String> one = plan("--preset", "seed", "--strategies", "buffered");
        assertTrue(one.get(1).startsWith("# paired off (one strategy: nothing to pair):"), one.get(1));
        assertEquals("#% paired=off budget=none", one.get(2));
        e = assertThrows(InvalidParameterException.class, () -> plan("--preset", "seed", "--iterations", "1"));
        assertEquals("--iterations", e.parameter(), "under a budget the first chunk needs two rounds for an interval");
    }

    @Test
    void theBalancePresetMapsFourBandwidthsTwoDirtyCachesAndThreeSizesPerSlot() {
        List<String> lines = plan("--preset", "balance");
        assertTrue(lines.get(0).startsWith("# balance: sizes small,large,xxlarge (the preset's);")
                && lines.get(0).contains("scale 0.05 (the preset's)") && lines.get(0).endsWith("native (the preset's)"),
                lines.get(0));
        List<String> devices = configs(lines).stream().map(l -> {
            int at = l.indexOf("-p device=");
            return at < 0 ? "native" : l.substring(at + "-p device=".length()).split(" ")[0];
        }).distinct().collect(Collectors.toList());
        assertEquals(List.of("per-slot:write=25000000:dirty=250000000", "per-slot:write=25000000:dirty=1000000000",
                "per-slot:write=50000000:dirty=250000000", "per-slot:write=50000000:dirty=1000000000",
                "per-slot:write=100000000:dirty=250000000", "per-slot:write=100000000:dirty=1000000000", "native"),
                devices);
        // Every device: three sizes x (four strategies and the raw write).
        assertEquals(7 * 3 * 5, configs(lines).size());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("xxlarge-per-slot_write_25000000_dirty_1000000000-async|")
                && l.contains("ShuffleWriteBenchmark -p strategy=async")), String.valueOf(lines));
    }

    @Test
    void anEmulatedDeviceGoesToEveryConfigurationAndTheSeedPresetRunsAtAQuarterOnIt() {
        List<String> lines = plan("--preset", "seed", "--device", "seed-ssd");
        assertTrue(lines.get(0).contains("scale 0.25 (on an emulated device")
                && lines.get(0).endsWith("device seed-ssd (given)"), lines.get(0));
        for (String line : configs(lines).subList(1, configs(lines).size())) {
            assertTrue(line.contains(" -p device=seed-ssd") && line.contains("-p scale=0.25"), line);
            // A balance's device is set from the harness's own task rate; its tasks get no producer unless given.
            assertTrue(!line.contains("producer="), line);
        }
        List<String> produced = plan("--preset", "seed", "--device", "seed-ssd", "--producer", "gpu:58260870");
        for (String line : configs(produced).subList(1, configs(produced).size())) {
            assertTrue(line.contains(" -p producer=gpu:58260870"), line);
        }
        assertTrue(produced.stream().anyMatch(l -> l.startsWith("# producer gpu:58260870 (given): gpu at 58.3 MB/s")),
                String.valueOf(produced));
        InvalidParameterException bad = assertThrows(InvalidParameterException.class,
                () -> plan("--preset", "seed", "--producer", "gpu:fast"));
        assertEquals("--producer", bad.parameter());
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
        assertTrue(small.stream().anyMatch(l -> l.contains(" -p memoryLimit=none+none+none+machine+none ")),
                String.valueOf(small));
        assertTrue(small.stream().noneMatch(l -> l.matches(".*memoryLimit=[0-9].*")), String.valueOf(small));
    }

    @Test
    void theHeaderSaysWhereEachChoiceCameFromWithItsPlural() {
        BenchPlan.Machine twoProcessors = new BenchPlan.Machine(2, 24 * GIB);
        String smoke = plan(twoProcessors, "--preset", "smoke").get(0);
        assertTrue(smoke.startsWith("# smoke: size tiny (the preset's); 1 task at once (the preset's); scale 1 (the "
                + "preset's); strategies per-batch,buffered,async,async:skipMerge=true,ideal (the preset's); codec "
                + "lz4-block (the default); 0 warm-up waves (the preset's) and 2 measured rounds (the preset's) per "
                + "configuration"), smoke);
        String quick = plan(twoProcessors, "--preset", "quick", "--sizes", "tiny").get(0);
        assertTrue(quick.contains("; 2 tasks at once (one per processor: this machine has 2 processors);"), quick);
        assertTrue(quick.contains("size tiny (given)"), quick);
        assertTrue(quick.contains("1 warm-up wave of a quarter of every record (the preset's) and 3 measured rounds "
                + "(the preset's)"), quick);
        String one = plan(new BenchPlan.Machine(1, 24 * GIB), "--preset", "quick", "--sizes", "tiny").get(0);
        assertTrue(one.contains("; 1 task at once (one per processor: this machine has 1 processor);"), one);
        String many = plan(new BenchPlan.Machine(64, 24 * GIB), "--preset", "quick", "--sizes", "tiny").get(0);
        assertTrue(many.contains("; 16 tasks at once (one per processor, at most 16: this machine has 64 "
                + "processors);"), many);
        String given = plan(twoProcessors, "--preset", "seed", "--sizes", "tiny", "--tasks", "3", "--warmups", "2",
                "--iterations", "2", "--strategies", "buffered", "--codec", "none", "--scale", "1", "--paired", "off",
                "--budget", "none").get(0);
        assertTrue(given.contains("; 3 tasks at once (given); scale 1 (given); strategy buffered (given); codec none "
                + "(given); 2 warm-up waves of a quarter of every record (given) and 2 measured waves (given) per "
                + "configuration"), given);
    }

    @Test
    void theSmokePresetStaysSmall() {
        List<String> lines = plan("--preset", "smoke");
        assertEquals(List.of("tiny", "tiny-raw"), configs(lines).stream().map(l -> l.split("\\|")[0])
                .collect(Collectors.toList()));
        assertTrue(lines.stream().noneMatch(l -> l.startsWith("noise-floor")), String.valueOf(lines));
    }

    @Test
    void syncPutsTheDiskInEveryWriteAndRawWaveButNotInTheNoiseFloor() {
        List<String> lines = plan("--preset", "seed", "--sync", "true");
        assertTrue(lines.get(0).contains("fsync at every commit (given);"), lines.get(0));
        for (String line : configs(lines)) {
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
