package dev.sluice.cli;

import dev.sluice.core.device.DeviceProfile;
import dev.sluice.core.device.DeviceSpec;
import dev.sluice.core.device.EmulatedDevice;
import dev.sluice.core.device.TaskRateCache;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.spi.Bytes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An emulated device on this machine, where root and loop devices exist (each test is skipped with the reason
 * elsewhere): it is made, a write lands on it, the kernel reports the throttle and the dirty cap as set; and after a
 * normal run, after SIGINT mid-run and after SIGKILL plus {@code scripts/sluice device cleanup}, no loop device,
 * mount, throttle rule, bdi setting, image or record of it remains.
 */
class EmulatedDeviceTest {
    @TempDir
    Path dir;

    @BeforeEach
    void needsRootAndLoopDevices() {
        String missing = EmulatedDevice.unavailable();
        Assumptions.assumeTrue(missing == null, "no emulated device here: it needs " + missing);
    }

    @Test
    @Timeout(120)
    void aDeviceIsMadeTakesAWriteReportsItsLimitsAndLeavesNothing() throws Exception {
        DeviceProfile.Emulation figures = DeviceSpec.parse("device", "emulated:write=200m:dirty=64m:iops=5000")
                .resolve(1, 1);
        String majMin;
        Path image;
        try (EmulatedDevice device = EmulatedDevice.create(figures, Bytes.GiB, dir.resolve("base"),
                new PrintStream(new ByteArrayOutputStream()), false)) {
            majMin = device.majMin();
            image = imageOf(dir.resolve("base"));
            assertTrue(mounted(device.directory().getParent().toString()));
            assertTrue(Files.isWritable(device.directory()));
            Path file = Files.write(device.directory().resolve("x"), new byte[1 << 20]);
            assertEquals(1 << 20, Files.size(file));
            String bdi = Path.of("/sys/class/bdi", majMin).toString();
            long maxBytes = Long.parseLong(Files.readString(Path.of(bdi, "max_bytes")).trim());
            assertEquals(64 * Bytes.MiB, maxBytes, 64 * Bytes.MiB / 100.0, "the dirty cap, as the kernel keeps it");
            assertEquals("1", Files.readString(Path.of(bdi, "strict_limit")).trim());
            assertEquals(String.valueOf(figures.writeBytesPerSecond), throttleRule("write_bps_device", majMin));
            assertEquals("5000", throttleRule("write_iops_device", majMin));
            assertTrue(device.describe().contains("write 209.7 MB/s, 5000 IOPS"), device.describe());
            // A second of the limit, forced: the throttle's first time slice lets a little more through.
            double mbps = device.measureRawWrite(figures.writeBytesPerSecond);
            assertTrue(mbps > 0 && mbps < 2 * figures.writeBytesPerSecond / 1e6, mbps + " MB/s");
        }
        assertNothingLeft(majMin, image, "");
        assertFalse(Files.exists(dir.resolve("base")), "the directory the device made is removed with it");
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
        String before = System.getProperty(TaskRateCache.PROPERTY);
        System.setProperty(TaskRateCache.PROPERTY, cache.toString());
        try {
            // A node whose disk per slot is half its task's rate; a gpu producer keeps the asked disk slow.
            // Small x 0.01: 4 MB a task, for the run and for the task rate it measures at the seed's Small.
            List<String> args = List.of("write", "--strategy", "buffered", "--size", "small", "--scale", "0.01",
                    "--tasks", "1", "--partitions", "7", "--threads", "2", "--producer", "gpu:16m", "--device",
                    "per-slot:write=8m:dirty=64m:produce=16m", "--out", dir.resolve("out").toString());
            for (int run = 0; run < 2; run++) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                ByteArrayOutputStream err = new ByteArrayOutputStream();
                int status = SluiceCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
                String log = err.toString(StandardCharsets.UTF_8);
                assertEquals(0, status, log);
                String json = out.toString(StandardCharsets.UTF_8);
                assertTrue(json.contains("\"balance\":0.5") && json.contains("\"taskRateMBps\":"), json);
                assertTrue(log.contains(run == 0 ? "measuring this harness's task rate" : "task rate "), log);
                if (run == 1) {
                    assertFalse(log.contains("measuring this harness's task rate"), "measured again: " + log);
                    assertTrue(log.contains("from the cache " + cache), log);
                }
            }
            assertTrue(Files.exists(cache));
            assertEquals(List.of(), records(), "device records are left");
        } finally {
            if (before == null) {
                System.clearProperty(TaskRateCache.PROPERTY);
            } else {
                System.setProperty(TaskRateCache.PROPERTY, before);
            }
        }
    }

    private static Path imageOf(Path base) throws IOException {
        try (Stream<Path> files = Files.list(base)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".img")).findFirst()
                    .orElseThrow(() -> new AssertionError("no image in " + base));
        }
    }

    private static String majMinOf(Path image) throws Exception {
        Process p = new ProcessBuilder("losetup", "-j", image.toString()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        String loop = out.substring(0, out.indexOf(':'));
        return Files.readString(Path.of("/sys/block", Path.of(loop).getFileName().toString(), "dev")).trim();
    }

    private static boolean mounted(String mount) throws IOException {
        return Files.readAllLines(Path.of("/proc/mounts")).stream().anyMatch(l -> l.split(" ")[1].equals(mount));
    }

    /** The rule on {@code majMin} in a cgroup v1 blkio throttle file, or null. */
    private static String throttleRule(String file, String majMin) throws IOException {
        Path path = Path.of("/sys/fs/cgroup/blkio/blkio.throttle." + file);
        Assumptions.assumeTrue(Files.exists(path), "no cgroup v1 blkio here to read back");
        for (String line : Files.readAllLines(path)) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 2 && f[0].equals(majMin)) {
                return f[1];
            }
        }
        return null;
    }

    private static void assertNothingLeft(String majMin, Path image, String log) throws Exception {
        Process losetup = new ProcessBuilder("losetup", "-a").start();
        String loops = new String(losetup.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        losetup.waitFor();
        assertFalse(loops.contains(image.toString()), "loop devices: " + loops);
        assertFalse(Files.readString(Path.of("/proc/mounts")).contains(image.getFileName().toString()
                .replace(".img", ".mnt")), "still mounted");
        if (Files.exists(Path.of("/sys/fs/cgroup/blkio/blkio.throttle.write_bps_device"))) {
            for (String file : List.of("write_bps_device", "read_bps_device", "write_iops_device", "read_iops_device")) {
                assertEquals(null, throttleRule(file, majMin), file + " keeps a rule on " + majMin);
            }
        }
        Path bdi = Path.of("/sys/class/bdi", majMin);
        if (Files.exists(bdi)) {
            assertEquals("0", Files.readString(bdi.resolve("strict_limit")).trim());
            assertEquals("100", Files.readString(bdi.resolve("max_ratio")).trim());
        }
        assertFalse(Files.exists(image), "image left: " + image + "; " + log);
        assertEquals(List.of(), records(), "device records left; " + log);
    }

    /** Records of devices in the state directory whose process is this one or gone. */
    private static List<String> records() throws IOException {
        return EmulatedDevice.recorded().stream().filter(r -> !r.endsWith("(its process is running)")
                        || r.contains("device-" + ProcessHandle.current().pid() + "-"))
                .collect(Collectors.toList());
    }
}
