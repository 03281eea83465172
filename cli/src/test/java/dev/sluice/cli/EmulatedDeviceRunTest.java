package dev.sluice.cli;

import static dev.sluice.core.device.DeviceTraces.anythingMountedUnder;
import static dev.sluice.core.device.DeviceTraces.assertNothingLeft;
import static dev.sluice.core.device.DeviceTraces.imageOf;
import static dev.sluice.core.device.DeviceTraces.majMinOf;
import static dev.sluice.core.device.DeviceTraces.records;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.device.EmulatedDevice;
import dev.sluice.core.device.TaskRateCache;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs of the command line on an emulated device, where root and loop devices exist (each test is skipped with the
 * reason elsewhere): after a normal run, after SIGINT mid-run and after SIGKILL plus
 * {@code scripts/sluice device cleanup}, no loop device, mount, throttle rule, bdi setting, image or record of it
 * remains; a balance measures the harness's task rate once. The device itself is core's test
 * ({@code EmulatedDeviceTest}).
 */
class EmulatedDeviceRunTest {
    @TempDir
    Path dir;

    @BeforeEach
    void needsRootAndLoopDevices() {
        String missing = EmulatedDevice.unavailable();
        Assumptions.assumeTrue(missing == null, "no emulated device here: it needs " + missing);
    }

    @Test
    @Timeout(180)
    void aRunASignalledRunAndAKilledRunPlusCleanupEachLeaveNothing() throws Exception {
        for (String end : List.of("normal", "INT", "KILL")) {
            Path base = dir.resolve(end);
            CliProcess run = CliProcess.start(List.of("write", "--strategy", "per-batch", "--size", "small", "--scale",
                    "0.25", "--tasks", "2", "--device", "emulated:write=50m:dirty=32m", "--out", base.toString()));
            String log;
            String majMin = null;
            Path image = null;
            if (end.equals("normal")) {
                log = run.finish(150);
                assertEquals(0, run.process.exitValue(), log);
            } else {
                assertTrue(run.awaitWave(120), "the wave never started: " + run.err());
                image = imageOf(base);
                majMin = majMinOf(image);
                run.signal(end);
                log = run.finish(150);
                assertEquals(end.equals("INT") ? 130 : 137, run.process.exitValue(), log);
                if (end.equals("KILL")) {
                    assertTrue(Files.exists(image), "a killed run leaves its device");
                    CliProcess cleanup = CliProcess.start(List.of("device", "cleanup"));
                    String cleaned = cleanup.finish(150);
                    assertEquals(0, cleanup.process.exitValue(), cleaned);
                    assertTrue(cleaned.contains("undid the emulated device of dead process " + run.process.pid()),
                            cleaned);
                }
            }
            if (majMin != null) {
                assertNothingLeft(majMin, image, log);
            }
            assertFalse(Files.exists(base), end + ": " + base + " is left: " + log);
            assertEquals(List.of(), records(), end + ": device records are left");
        }
    }

    @Test
    @Timeout(180)
    void aBalanceMeasuresTheHarnesssTaskRateOnceAndSetsTheDeviceFromIt() throws Exception {
        Path cache = dir.resolve("cache/task-rates.properties");
        withTaskRateCache(cache, () -> {
            // A node whose disk per slot is half its task's rate; a gpu producer keeps the asked disk well within any
            // storage (and fast enough that the device's rate-limit training, longer the slower the device, is short).
            // Small x 0.01: 4 MB a task, for the run and for the task rate it measures at the seed's Small.
            List<String> args = List.of("write", "--strategy", "buffered", "--size", "small", "--scale", "0.01",
                    "--tasks", "1", "--partitions", "7", "--threads", "2", "--producer", "gpu:128m", "--device",
                    "per-slot:write=64m:dirty=64m:produce=128m", "--out", dir.resolve("out").toString());
            for (int run = 0; run < 2; run++) {
                CliResult w = CliResult.run(args);
                assertEquals(0, w.status(), w.err());
                assertTrue(w.out().contains("\"balance\":0.5") && w.out().contains("\"taskRateMBps\":"), w.out());
                assertTrue(w.err().contains(run == 0 ? "measuring this harness's task rate" : "task rate "), w.err());
                if (run == 1) {
                    assertFalse(w.err().contains("measuring this harness's task rate"), "measured again: " + w.err());
                    assertTrue(w.err().contains("from the cache " + cache), w.err());
                }
            }
            assertTrue(Files.exists(cache));
            assertEquals(List.of(), records(), "device records are left");
        });
    }

    @Test
    @Timeout(300)
    void aBalanceThatAsksMoreThanHalfTheStorageGetsAGpuProducerSaidAndRecordedAndBothMeasurementsAreKept()
            throws Exception {
        Path cache = dir.resolve("cache/task-rates.properties");
        withTaskRateCache(cache, () -> {
            // A disk per slot a hundred times its task's rate: more than half of any storage this runs on.
            List<String> args = List.of("write", "--strategy", "buffered", "--size", "small", "--scale", "0.01",
                    "--tasks", "1", "--partitions", "7", "--threads", "2", "--device",
                    "per-slot:write=1600m:dirty=64m:produce=16m", "--out", dir.resolve("out").toString());
            for (int run = 0; run < 2; run++) {
                CliResult w = CliResult.run(args);
                assertEquals(0, w.status(), w.err());
                assertTrue(w.out().contains("\"producer\":\"gpu:") && w.out().contains("\"producerChoice\":\"with "
                        + "the tasks as they are"), w.out());
                assertTrue(w.err().contains("sluice: producer gpu:") && w.err().contains("more than 50% of the"), w.err());
                if (run == 0) {
                    assertTrue(w.err().contains("measuring the storage under a device"), w.err());
                } else {
                    assertFalse(w.err().contains("measuring the storage under a device"), "measured again: " + w.err());
                    assertFalse(w.err().contains("measuring this harness's task rate"), "measured again: " + w.err());
                    assertTrue(w.err().contains("the storage under a device: ") && w.err().contains("from the cache "
                            + cache), w.err());
                }
            }
            assertEquals(List.of(), records(), "device records are left");
            assertFalse(anythingMountedUnder(dir), "mounts are left");
        });
    }

    /** What a test does with the task-rate cache (and the storage's ceiling beside it) in a file of its own. */
    private interface WithCache {
        void run() throws Exception;
    }

    private static void withTaskRateCache(Path cache, WithCache body) throws Exception {
        String before = System.getProperty(TaskRateCache.PROPERTY);
        System.setProperty(TaskRateCache.PROPERTY, cache.toString());
        try {
            body.run();
        } finally {
            if (before == null) {
                System.clearProperty(TaskRateCache.PROPERTY);
            } else {
                System.setProperty(TaskRateCache.PROPERTY, before);
            }
        }
    }
}
