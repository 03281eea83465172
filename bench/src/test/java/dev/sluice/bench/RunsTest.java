package dev.sluice.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.bench.Plan.Configuration;
import dev.sluice.core.run.BenchmarkParam;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.options.Options;

/** The JMH runs of scripts/bench.sh's configurations, as JMH's command line would say them, and their options. */
class RunsTest {
    private static Plan plan(String... args) {
        return BenchPlan.plan(Arrays.asList(args));
    }

    private static Configuration named(Plan plan, String name) {
        return plan.configurations.stream().filter(c -> c.name.equals(name)).findFirst().orElseThrow();
    }

    /** Every configuration's first JMH runs, described. */
    private static List<String> described(Plan plan) {
        return plan.configurations.stream().flatMap(c -> Runs.planned(c, plan.design, "f").stream())
                .map(JmhRun::describe).collect(Collectors.toList());
    }

    @Test
    void theSeedPresetsFirstChunkTakesTurnsInOneForkWithSkipMergesLimit() {
        Plan plan = plan("--preset", "seed");
        JmhRun small = Runs.chunk(named(plan, "small"), plan.design, "02-small", 1, 3).get(0);
        assertEquals("02-small-c1", small.file);
        assertEquals("PairedWaveBenchmark -p strategies=per-batch+buffered+async+async:skipMerge=true+ideal -p "
                + "memoryLimit=none+none+none+machine+none -p size=small -p scale=seed-equivalent -p tasks="
                + Math.min(16, Runtime.getRuntime().availableProcessors()) + " -p codec=lz4-block -f 1 -foe true "
                + "-wi 5 -i 15", small.describe(), "one warm-up wave each and a first chunk of three rounds");
        String raw = Runs.raw(named(plan, "small-raw"), "03-small-raw", 123456).describe();
        assertTrue(raw.startsWith("RawWriteBenchmark -p fileBytes=123456 "), raw);
        assertTrue(Runs.planned(named(plan, "small-raw"), plan.design, "03-small-raw").get(0).describe()
                .startsWith("RawWriteBenchmark -p fileBytes=(small's wave.dataBytesPerTask) "), "plan.txt's record");
        assertTrue(raw.endsWith("-wi 1 -i 5"), "what is not paired gets five waves: " + raw);
        JmhRun floor = Runs.planned(named(plan, "small-floor"), plan.design, "04-small-floor").get(0);
        assertEquals("FloorBenchmark -p size=small -p scale=seed-equivalent -p tasks="
                + Math.min(16, Runtime.getRuntime().availableProcessors()) + " -p codec=lz4-block -f 1 -foe true "
                + "-wi 1 -i 5", floor.describe(), "the floors: both methods, no device, no sync");
        String paced = Runs.paced(named(plan, "small-paced"), "05-small-paced", "123456", "987654321").describe();
        assertTrue(paced.startsWith("RawWriteBenchmark -p fileBytes=123456 -p pace=987654321 ")
                && paced.endsWith("-wi 1 -i 5"), "the raw write, paced, planned like it: " + paced);
        assertTrue(Runs.planned(named(plan, "small-paced"), plan.design, "05-small-paced").get(0).describe()
                .startsWith("RawWriteBenchmark -p fileBytes=(small's wave.dataBytesPerTask) -p pace=(those bytes over "
                        + "small-floor's serialize + compress) "), "plan.txt's record");
        String noise = Runs.noiseFloor(plan.configurations.get(0), "01-noise-floor").describe();
        assertTrue(noise.startsWith("NoiseFloorBenchmark -p tasks=") && noise.contains("-wi 1 -i 5"), noise);
    }

    @Test
    void unpairedEachStrategyRunsInAForkOfItsOwnWithItsLimit() {
        Plan plan = plan("--preset", "seed", "--paired", "off", "--budget", "none", "--iterations", "5");
        String skipMerge = Runs.single(named(plan, "xxlarge-async_skipMerge_true"), "f").describe();
        assertTrue(skipMerge.startsWith("ShuffleWriteBenchmark -p strategy=async:skipMerge=true "), skipMerge);
        assertTrue(skipMerge.contains("-p memoryLimit=machine"), "upstream's skip-merge needs a limit: " + skipMerge);
        assertTrue(skipMerge.contains("-p scale=seed-equivalent") && skipMerge.contains("-wi 1 -i 5"), skipMerge);
        String buffered = Runs.single(named(plan, "xxlarge-buffered"), "f").describe();
        assertTrue(!buffered.contains("memoryLimit"), buffered);
    }

    @Test
    void theForksDesignRunsOneForkPerStrategyEachChunkStartingOneFurtherOnWithItsOwnLimit() {
        Plan plan = plan("--preset", "smoke", "--paired", "forks", "--strategies",
                "per-batch,buffered,async:skipMerge=true,ideal", "--warmups", "1");
        Configuration tiny = named(plan, "tiny");
        List<JmhRun> first = Runs.chunk(tiny, plan.design, "01-tiny", 1, 3);
        assertEquals(4, first.size());
        assertEquals("01-tiny-c1-s0", first.get(0).file);
        assertEquals("ShuffleWriteBenchmark -p strategy=per-batch -p memoryLimit=none -p size=tiny -p scale=1 -p "
                + "tasks=1 -p codec=lz4-block -f 1 -foe true -wi 1 -i 3", first.get(0).describe());
        assertTrue(first.get(2).describe().startsWith("ShuffleWriteBenchmark -p strategy=async:skipMerge=true -p "
                + "memoryLimit=machine "), first.get(2).describe());
        List<JmhRun> second = Runs.chunk(tiny, plan.design, "01-tiny", 2, 4);
        assertEquals(List.of("01-tiny-c2-s1", "01-tiny-c2-s2", "01-tiny-c2-s3", "01-tiny-c2-s0"),
                second.stream().map(r -> r.file).collect(Collectors.toList()), "one strategy further on");
        assertEquals(4, second.get(0).iterations);
    }

    @Test
    void aDeviceAProducerFullWarmUpsAndSyncGoToEveryWriteAndRawWaveButNotToTheNoiseFloor() {
        Plan plan = plan("--preset", "seed", "--device", "seed-ssd", "--producer", "gpu:58260870", "--sync", "true",
                "--warmup-records", "full");
        List<String> runs = described(plan);
        assertTrue(runs.get(0).startsWith("NoiseFloorBenchmark"), runs.get(0));
        assertTrue(!runs.get(0).contains("device=") && !runs.get(0).contains("sync="), runs.get(0));
        for (String line : runs.subList(1, runs.size())) {
            if (line.startsWith("FloorBenchmark")) {
                // No I/O and no batch made: none of the four is the floor's.
                assertTrue(!line.contains("device=") && !line.contains("sync=") && !line.contains("producer=")
                        && line.contains("-p scale=0.25"), line);
                continue;
            }
            assertTrue((line + " ").contains(" -p device=seed-ssd -p producer=gpu:58260870 -p warmUp=full -p "
                    + "sync=true "), line);
            assertTrue(line.contains("-p scale=0.25"), line);
        }
        assertTrue(described(plan("--preset", "seed")).stream().noneMatch(l -> l.contains("sync=")
                || l.contains("device=") || l.contains("producer=") || l.contains("warmUp=")), "none by default");
    }

    @Test
    void theOptionsAreTheRunsOwnWithTheForksFlagsAndAJsonResult() {
        Plan plan = plan("--preset", "smoke");
        JmhRun run = Runs.chunk(named(plan, "tiny"), plan.design, "01-tiny", 1, 2).get(0);
        Options options = run.options(Path.of("runs/01-tiny-c1.json"), List.of("-Dsluice.verifiedDigests=v"));
        assertEquals(List.of("^\\Qdev.sluice.jmh.write.PairedWaveBenchmark.\\E"), options.getIncludes());
        assertEquals(List.of("per-batch+buffered+async+async:skipMerge=true+ideal"),
                List.copyOf(options.getParameter(BenchmarkParam.STRATEGIES.key()).get()));
        assertEquals(List.of("tiny"), List.copyOf(options.getParameter(BenchmarkParam.SIZE.key()).get()));
        assertEquals(0, options.getWarmupIterations().get());
        assertEquals(10, options.getMeasurementIterations().get(), "two rounds of five strategies");
        assertEquals(1, options.getForkCount().get());
        assertTrue(options.shouldFailOnError().get());
        assertEquals("runs/01-tiny-c1.json", options.getResult().get());
        assertEquals(List.of("-Dsluice.verifiedDigests=v"), List.copyOf(options.getJvmArgsAppend().get()));
        assertEquals(1, options.getProfilers().size(), "ShuffleIoProfiler");
    }
}
