package dev.sluice.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.bench.Plan.Configuration;
import dev.sluice.core.device.DeviceSpec;
import dev.sluice.core.run.BalanceFit;
import dev.sluice.core.strategy.StrategySets;
import dev.sluice.spi.InvalidParameterException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The matrices of scripts/bench.sh (their JMH runs: RunsTest). */
class BenchPlanTest {
    private static final long GIB = 1L << 30;

    private static Plan plan(String... args) {
        return BenchPlan.plan(Arrays.asList(args));
    }

    private static Plan plan(BenchPlan.Machine machine, String... args) {
        return BenchPlan.plan(Arrays.asList(args), machine);
    }

    /** The plan's header lines, as plan.txt and BenchPlan's main print them. */
    private static List<String> header(Plan plan) {
        return plan.header.stream().map(h -> "# " + h).collect(Collectors.toList());
    }

    private static List<String> names(Plan plan) {
        return plan.configurations.stream().map(c -> c.name).collect(Collectors.toList());
    }

    private static Configuration named(Plan plan, String name) {
        return plan.configurations.stream().filter(c -> c.name.equals(name)).findFirst().orElseThrow();
    }

    @Test
    void theSeedPresetPairsEverySizesFiveStrategiesInRoundsUnderAThirtyMinuteBudget() {
        Plan plan = plan("--preset", "seed");
        List<String> lines = header(plan);
        assertTrue(lines.get(0).startsWith("# seed: sizes small,medium,large,xlarge,xxlarge (the preset's);"),
                lines.get(0));
        assertTrue(lines.get(1).startsWith("# paired rounds (the preset's): a size's strategies take turns wave by "
                + "wave in one fork"), lines.get(1));
        assertTrue(lines.get(1).endsWith("or the 1800 s budget (the preset's) is spent"), lines.get(1));
        assertEquals(BenchPlan.ROUNDS, plan.design);
        assertEquals(1800, plan.budget);
        assertEquals(List.of("noise-floor", "small", "small-raw", "small-floor", "small-paced", "medium", "medium-raw",
                "medium-floor", "medium-paced", "large", "large-raw", "large-floor", "large-paced", "xlarge",
                "xlarge-raw", "xlarge-floor", "xlarge-paced", "xxlarge", "xxlarge-raw", "xxlarge-floor",
                "xxlarge-paced"), names(plan));
        Configuration small = named(plan, "small");
        assertEquals(Configuration.Kind.PAIRED, small.kind);
        assertEquals(StrategySets.PAIRED, small.strategies);
        assertEquals(List.of("none", "none", "none", "machine", "none"), small.memoryLimits, "skip-merge's limit");
        assertEquals(1, small.warmups, "one warm-up wave each");
        assertEquals(3, small.iterations, "a first chunk of three rounds");
        assertEquals("seed-equivalent", small.settings.scale);
        Configuration raw = named(plan, "small-raw");
        assertEquals("small", raw.rawOf);
        assertEquals(5, raw.iterations, "what is not paired gets five waves");
        Configuration floor = named(plan, "small-floor");
        assertEquals(Configuration.Kind.FLOOR, floor.kind);
        assertEquals("small", floor.size);
        assertEquals(List.of(1, 5), List.of(floor.warmups, floor.iterations), "planned like the raw write");
        assertEquals("lz4-block", floor.settings.codec);
        Configuration paced = named(plan, "small-paced");
        assertEquals(Configuration.Kind.PACED_WRITE, paced.kind);
        assertEquals("small", paced.rawOf, "the bytes the raw write writes");
        assertEquals(List.of(1, 5), List.of(paced.warmups, paced.iterations), "planned like the raw write");
        Configuration noise = plan.configurations.get(0);
        assertEquals(Configuration.Kind.NOISE_FLOOR, noise.kind);
        assertEquals(1, noise.warmups);
        assertEquals(5, noise.iterations);
    }

    @Test
    void unpairedEachStrategyRunsInAForkOfItsOwnAsBefore() {
        Plan plan = plan("--preset", "seed", "--paired", "off", "--budget", "none", "--iterations", "5");
        assertEquals(BenchPlan.OFF, plan.design);
        assertEquals(0, plan.budget);
        List<String> configs = names(plan);
        assertEquals(1 + 5 * 8, configs.size(), String.valueOf(configs));
        assertEquals(List.of("small-per-batch", "small-buffered", "small-async", "small-async_skipMerge_true",
                "small-ideal", "small-raw", "small-floor", "small-paced"), configs.subList(1, 9));
        assertEquals("small-per-batch", named(plan, "small-paced").rawOf);
        assertEquals("small-per-batch", named(plan, "small-raw").rawOf);
        Configuration skipMerge = named(plan, "xxlarge-async_skipMerge_true");
        assertEquals(List.of("machine"), skipMerge.memoryLimits, "upstream's skip-merge needs a limit");
        assertEquals("seed-equivalent", skipMerge.settings.scale);
        assertEquals(1, skipMerge.warmups);
        assertEquals(5, skipMerge.iterations);
    }

    @Test
    void thePairedDesignAndTheBudgetAreChecked() {
        assertEquals(List.of(BenchPlan.FORKS, 1800L), designAndBudget(plan("--preset", "seed", "--paired", "forks")));
        assertEquals(List.of(BenchPlan.ROUNDS, 600L), designAndBudget(plan("--preset", "quick", "--budget", "10m")));
        assertEquals(List.of(BenchPlan.ROUNDS, 3600L), designAndBudget(plan("--preset", "quick", "--budget", "1h")));
        assertEquals(List.of(BenchPlan.ROUNDS, 0L), designAndBudget(plan("--preset", "seed", "--budget", "none")));
        assertEquals(List.of(BenchPlan.OFF, 0L), designAndBudget(plan("--preset", "tuning")));
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
        Plan one = plan("--preset", "seed", "--strategies", "buffered");
        assertTrue(header(one).get(1).startsWith("# paired off (one strategy: nothing to pair):"), header(one).get(1));
        assertEquals(List.of(BenchPlan.OFF, 0L), designAndBudget(one));
        e = assertThrows(InvalidParameterException.class, () -> plan("--preset", "seed", "--iterations", "1"));
        assertEquals("--iterations", e.parameter(), "under a budget the first chunk needs two rounds for an interval");
    }

    private static List<Object> designAndBudget(Plan plan) {
        return List.of(plan.design, plan.budget);
    }

    @Test
    void thePartitionsPresetPairsSixStrategiesAtFiveCountsAndLeavesOutThoseThatCannotOpenTheirFiles() {
        Plan plan = plan(new BenchPlan.Machine(2, 24 * GIB, 20_000), "--preset", "partitions", "--floors", "false");
        assertEquals(List.of("small-p16", "small-raw", "xxlarge-p16", "xxlarge-raw", "small-p200", "xxlarge-p200",
                "small-p1000", "xxlarge-p1000", "small-p5000", "xxlarge-p5000", "small-p20000", "xxlarge-p20000"),
                names(plan), "every size at every count; the raw write once per size, as its bytes do not change");
        assertEquals(List.of(16, 16, 16, 16, 200, 200, 1000, 1000, 5000, 5000, 20000, 20000),
                plan.configurations.stream().map(c -> c.partitions).collect(Collectors.toList()));
        assertEquals(BenchPlan.PARTITIONS_STRATEGIES, named(plan, "small-p5000").strategies);
        // Two tasks with a file per partition each need 40,006 files at 20,000 partitions: more than 20,000.
        assertEquals(List.of("sort", "buffered", "async", "ideal"), named(plan, "xxlarge-p20000").strategies);
        List<String> leftOut = header(plan).stream().filter(l -> l.startsWith("# Left out: ")).toList();
        assertEquals(4, leftOut.size(), String.valueOf(leftOut));
        assertTrue(leftOut.get(0).startsWith("# Left out: per-batch at small, 20000 partitions: needs up to 40006 "
                + "open files") && leftOut.get(0).contains("may open 20000"), leftOut.get(0));
        assertTrue(header(plan).get(header(plan).size() - 1).startsWith("# paired rounds"), "the pairing stays last");
        assertTrue(header(plan).get(0).contains("scale 0.25 (the preset's)")
                && header(plan).get(0).contains("5 measured rounds (the preset's)"), header(plan).get(0));
    }

    @Test
    void aMemoryLimitListGivesEveryStrategyEachLimitAndLeavesOutOneThatRefusesALimit() {
        Plan plan = plan(new BenchPlan.Machine(2, 24 * GIB, 20_000), "--preset", "quick", "--floors", "false",
                "--strategies", "per-batch,sort,ideal", "--memory-limit", "64m,none");
        assertEquals(List.of("noise-floor", "small-m64m", "small-raw", "small-mnone"), names(plan));
        assertEquals(List.of("per-batch", "sort"), named(plan, "small-m64m").strategies);
        assertEquals(List.of("64m", "64m"), named(plan, "small-m64m").memoryLimits);
        assertEquals(List.of("per-batch", "sort", "ideal"), named(plan, "small-mnone").strategies);
        assertTrue(header(plan).stream().anyMatch(l -> l.startsWith("# Left out: ideal at small, 200 partitions, "
                + "memory limit 64m: ")), String.valueOf(header(plan)));
    }

    @Test
    void aBadPartitionCountOrMemoryLimitIsRefusedNamingTheOption() {
        InvalidParameterException e = assertThrows(InvalidParameterException.class,
                () -> plan("--preset", "quick", "--partitions", "200,0"));
        assertEquals("--partitions", e.parameter());
        e = assertThrows(InvalidParameterException.class, () -> plan("--preset", "quick", "--partitions", "16,16"));
        assertEquals("--partitions", e.parameter());
        e = assertThrows(InvalidParameterException.class, () -> plan("--preset", "quick", "--memory-limit", "lots"));
        assertEquals("--memory-limit", e.parameter());
    }

    @Test
    void theBalancePresetMapsThreeBalancesTwoDirtyCachesAndThreeSizesInPairedRounds() {
        Plan plan = plan("--preset", "balance");
        String first = header(plan).get(0);
        assertTrue(first.startsWith("# balance: sizes small,large,xxlarge (the preset's);")
                && first.contains("scale 0.25 (the preset's)") && first.contains("5 measured rounds (the preset's)")
                && first.endsWith("native (the preset's)"), first);
        List<String> devices = plan.configurations.stream().map(c -> c.device.text()).distinct().collect(Collectors.toList());
        assertEquals(List.of("per-slot:write=40m:dirty=250000000:produce=100m",
                "per-slot:write=40m:dirty=1000000000:produce=100m", "per-slot:write=80m:dirty=250000000:produce=100m",
                "per-slot:write=80m:dirty=1000000000:produce=100m", "per-slot:write=160m:dirty=250000000:produce=100m",
                "per-slot:write=160m:dirty=1000000000:produce=100m", "native"), devices);
        assertEquals(List.of(0.4, 0.4, 0.8, 0.8, 1.6, 1.6), devices.subList(0, 6).stream()
                .map(d -> DeviceSpec.parse("device", d).profile().balance()).collect(Collectors.toList()));
        // Every device: three sizes x (the strategies paired, the raw write and the paced write); and a floor per
        // size, with the first.
        assertEquals(7 * 3 * 3 + 3, plan.configurations.size());
        assertEquals("xxlarge-per-slot_write_40m_dirty_1000000000_produce_100m-paced", plan.configurations.stream()
                .filter(c -> c.kind == Configuration.Kind.PACED_WRITE).map(c -> c.name).skip(5).findFirst()
                .orElseThrow(), "one for each size and device, named after both");
        assertEquals(3, plan.configurations.stream().filter(c -> c.kind == Configuration.Kind.FLOOR).count());
        Configuration paired = named(plan, "xxlarge-per-slot_write_40m_dirty_1000000000_produce_100m");
        assertEquals(BenchPlan.BALANCE, paired.strategies);
        assertEquals(Configuration.Kind.PAIRED, paired.kind);
        // Balances: the runner chooses the producer, as for the seed's.
        assertTrue(header(plan).stream().anyMatch(l -> l.startsWith("# producer auto (the default)")),
                String.valueOf(header(plan)));
    }

    @Test
    void anEmulatedDeviceGoesToEveryConfigurationAndTheSeedPresetRunsAtAQuarterOnIt() {
        Plan plan = plan("--preset", "seed", "--device", "seed-ssd");
        String first = header(plan).get(0);
        assertTrue(first.contains("scale 0.25 (on an emulated device") && first.endsWith("device seed-ssd (given)"),
                first);
        for (Configuration c : plan.configurations.subList(1, plan.configurations.size())) {
            assertEquals("seed-ssd", c.device.text(), c.name);
            assertEquals("0.25", c.settings.scale, c.name);
            // A balance's device is set from the harness's own task rate; the runner chooses its producer (auto).
            assertEquals(BalanceFit.AUTO, c.settings.producer, c.name);
        }
        assertTrue(header(plan).stream().anyMatch(l -> l.startsWith("# producer auto (the default): none, unless a "
                + "device is a balance")), String.valueOf(header(plan)));
        // What the runner chose for the device replaces auto in every configuration on it, said before the pairing.
        Plan chosen = plan.withProducers(java.util.Map.of(DeviceSpec.parse("device", "seed-ssd"), "gpu:166m"), List.of("producer on seed-ssd: "
                + "gpu:166m (auto: why)"));
        for (Configuration c : chosen.configurations.subList(1, chosen.configurations.size())) {
            assertEquals("gpu:166m", c.settings.producer, c.name);
        }
        assertEquals(plan.header.size() + 1, chosen.header.size());
        assertEquals("producer on seed-ssd: gpu:166m (auto: why)", chosen.header.get(chosen.header.size() - 2));
        assertEquals(plan.header.get(plan.header.size() - 1), chosen.header.get(chosen.header.size() - 1));
        Plan none = plan("--preset", "seed", "--device", "seed-ssd", "--producer", "none");
        assertEquals(null, none.configurations.get(1).settings.producer, "none, given");
        Plan produced = plan("--preset", "seed", "--device", "seed-ssd", "--producer", "gpu:58260870");
        for (Configuration c : produced.configurations.subList(1, produced.configurations.size())) {
            assertEquals("gpu:58260870", c.settings.producer, c.name);
        }
        assertTrue(header(produced).stream().anyMatch(l -> l.startsWith("# producer gpu:58260870 (given): gpu at 58.3 "
                + "MB/s")), String.valueOf(header(produced)));
        InvalidParameterException bad = assertThrows(InvalidParameterException.class,
                () -> plan("--preset", "seed", "--producer", "gpu:fast"));
        assertEquals("--producer", bad.parameter());
        InvalidParameterException e = assertThrows(InvalidParameterException.class,
                () -> plan("--preset", "seed", "--device", "floppy"));
        assertEquals("--device", e.parameter());
    }

    @Test
    void skipMergesLimitReadsTheSameOnMachinesOfAnyMemorySoThatTheirResultsCompare() {
        Plan small = plan(new BenchPlan.Machine(2, 24 * GIB), "--preset", "seed", "--tasks", "2");
        Plan large = plan(new BenchPlan.Machine(2, 512 * GIB), "--preset", "seed", "--tasks", "2");
        assertEquals(small.configurations.stream().map(c -> c.memoryLimits).collect(Collectors.toList()),
                large.configurations.stream().map(c -> c.memoryLimits).collect(Collectors.toList()),
                "every configuration's limits are the same on both machines");
        assertEquals(List.of("none", "none", "none", "machine", "none"), named(small, "small").memoryLimits);
        assertTrue(small.configurations.stream().flatMap(c -> c.memoryLimits.stream())
                .allMatch(l -> l.equals("none") || l.equals("machine")), "no machine's bytes");
    }

    @Test
    void theHeaderSaysWhereEachChoiceCameFromWithItsPlural() {
        BenchPlan.Machine twoProcessors = new BenchPlan.Machine(2, 24 * GIB);
        String smoke = header(plan(twoProcessors, "--preset", "smoke")).get(0);
        assertTrue(smoke.startsWith("# smoke: size tiny (the preset's); 1 task at once (the preset's); scale 1 (the "
                + "preset's); strategies per-batch,buffered,async,async:skipMerge=true,ideal (the preset's); codec "
                + "lz4-block (the default); 0 warm-up waves (the preset's) and 2 measured rounds (the preset's) per "
                + "configuration"), smoke);
        String quick = header(plan(twoProcessors, "--preset", "quick", "--sizes", "tiny")).get(0);
        assertTrue(quick.contains("; 2 tasks at once (one per processor: this machine has 2 processors);"), quick);
        assertTrue(quick.contains("size tiny (given)"), quick);
        assertTrue(quick.contains("1 warm-up wave of a quarter of every record (the preset's) and 3 measured rounds "
                + "(the preset's)"), quick);
        String one = header(plan(new BenchPlan.Machine(1, 24 * GIB), "--preset", "quick", "--sizes", "tiny")).get(0);
        assertTrue(one.contains("; 1 task at once (one per processor: this machine has 1 processor);"), one);
        String many = header(plan(new BenchPlan.Machine(64, 24 * GIB), "--preset", "quick", "--sizes", "tiny"))
                .get(0);
        assertTrue(many.contains("; 16 tasks at once (one per processor, at most 16: this machine has 64 "
                + "processors);"), many);
        String given = header(plan(twoProcessors, "--preset", "seed", "--sizes", "tiny", "--tasks", "3", "--warmups",
                "2", "--iterations", "2", "--strategies", "buffered", "--codec", "none", "--scale", "1", "--paired",
                "off", "--budget", "none")).get(0);
        assertTrue(given.contains("; 3 tasks at once (given); scale 1 (given); strategy buffered (given); codec none "
                + "(given); 2 warm-up waves of a quarter of every record (given) and 2 measured waves (given) per "
                + "configuration"), given);
    }

    @Test
    void theSmokePresetStaysSmall() {
        assertEquals(List.of("tiny", "tiny-raw", "tiny-floor", "tiny-paced"), names(plan("--preset", "smoke")));
    }

    @Test
    void floorsFalseLeavesThePlanAsItWasAndLz4FrameHasNoFloorButSaysWhy() {
        Plan without = plan("--preset", "seed", "--floors", "false");
        assertEquals(List.of("noise-floor", "small", "small-raw", "medium", "medium-raw", "large", "large-raw",
                "xlarge", "xlarge-raw", "xxlarge", "xxlarge-raw"), names(without));
        assertEquals(header(plan("--preset", "seed")), header(without), "the header is the same");
        Plan frame = plan("--preset", "smoke", "--codec", "lz4-frame");
        assertEquals(List.of("tiny", "tiny-raw"), names(frame));
        assertTrue(header(frame).contains("# no floors: lz4-frame compresses Arrow's buffers inside each record, not "
                + "the serialized record, so FloorBenchmark has no compression floor for it"), String.valueOf(
                header(frame)));
        assertTrue(header(frame).get(header(frame).size() - 1).startsWith("# paired rounds"), "the pairing stays last");
        assertEquals(List.of("tiny", "tiny-raw", "tiny-floor", "tiny-paced"),
                names(plan("--preset", "smoke", "--codec", "zstd")));
        InvalidParameterException e = assertThrows(InvalidParameterException.class,
                () -> plan("--preset", "smoke", "--floors", "yes"));
        assertEquals("--floors", e.parameter());
        assertEquals("yes", e.value());
        assertTrue(e.allowed().startsWith("true (a floor configuration per size"), e.allowed());
    }

    @Test
    void syncPutsTheDiskInEveryWriteAndRawWave() {
        Plan plan = plan("--preset", "seed", "--sync", "true");
        assertTrue(plan.header.get(0).contains("fsync at every commit (given);"), plan.header.get(0));
        assertTrue(plan.configurations.stream().allMatch(c -> c.settings.sync), "every configuration's");
        assertTrue(plan("--preset", "seed").configurations.stream().noneMatch(c -> c.settings.sync),
                "sync is off by default");
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

    @Test
    void mainPrintsTheHeaderLines() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        assertEquals(0, BenchPlan.run(List.of("--preset", "smoke"), new PrintStream(bytes, true,
                StandardCharsets.UTF_8)));
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(text.startsWith("# smoke: ") && text.contains("\n# paired rounds "), text);
    }
}
