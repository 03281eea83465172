package dev.sluice.strategy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.device.DeviceProfile;
import dev.sluice.core.device.DeviceSpec;
import dev.sluice.core.device.TaskRate;
import dev.sluice.core.device.TaskRateCache;
import dev.sluice.core.run.Producer;
import dev.sluice.core.run.TaskRateCalibration;
import dev.sluice.core.run.Workload;
import dev.sluice.spi.WriterConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The harness measures its own task rate (per-batch at Small on native storage, every wave verified, nothing left),
 * keeps it per configuration, and a balance sets the device from it.
 */
class TaskRateCalibrationTest {
    @TempDir
    Path dir;

    private static Workload workload(String tasks, String size) {
        return Workload.parse("--", size, "0.004", tasks, "17", "seed", "none", "none", "roundrobin", "uniform",
                "lz4-block", "42", "int64");
    }

    private static WriterConfig.Builder settings() {
        return WriterConfig.builder().partitions(17).threads(2);
    }

    @Test
    @Timeout(120)
    void theRateIsMeasuredOnceThenFoundInTheCacheUntilTheConfigurationChanges() throws Exception {
        TaskRateCache cache = new TaskRateCache(dir.resolve("cache/task-rates.properties"));
        Path base = dir.resolve("out");
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8);
        // The run's size does not matter: the rate is measured at Small, where the seed's disk held nothing back.
        TaskRate measured = TaskRateCalibration.find(workload("2", "xxlarge"), settings(), base, cache, out);
        assertTrue(measured.bytesPerSecond > 0);
        assertTrue(measured.how.startsWith("measured: per-batch at small x 0.004, 2 tasks, producer none"),
                measured.how);
        try (var left = Files.list(base)) {
            assertEquals(List.of(), left.toList(), "the calibration leaves no file in the run's directory");
        }
        TaskRate again = TaskRateCalibration.find(workload("2", "large"), settings(), base, cache, out);
        assertEquals(measured.bytesPerSecond, again.bytesPerSecond);
        assertTrue(again.how.startsWith("from the cache"), again.how);
        TaskRate oneTask = TaskRateCalibration.find(workload("1", "xxlarge"), settings(), base, cache, out);
        assertTrue(oneTask.how.startsWith("measured: per-batch at small x 0.004, 1 task,"), oneTask.how);
        TaskRate produced = TaskRateCalibration.find(workload("2", "xxlarge").withProducer(Producer.parse("p",
                "gpu:64m")), settings(), base, cache, out);
        assertTrue(produced.how.contains("producer gpu:64m"), produced.how);
        String printed = log.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("measuring this harness's task rate"), printed);
    }

    @Test
    @Timeout(120)
    void aGpuProducersWaitIsPartOfTheTasksTime() throws Exception {
        // Small x 0.004: 1.6 MB of input per task in one batch; at 4 MiB/s the producer alone takes 0.38 s a wave,
        // many times what writing 1.6 MB takes.
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        Workload plain = workload("1", "small");
        TaskRate fast = TaskRateCalibration.measure(plain, settings(), dir, quiet);
        TaskRate slow = TaskRateCalibration.measure(plain.withProducer(Producer.parse("p", "gpu:4m")), settings(),
                dir, quiet);
        assertTrue(slow.bytesPerSecond < fast.bytesPerSecond / 2, slow + " against " + fast);
        double producerSeconds = plain.atSmall().taskBytes() / (4.0 * (1 << 20));
        assertTrue(slow.how.matches(".*waves of (\\d+), (\\d+), (\\d+) ms.*"), slow.how);
        for (String ms : slow.how.replaceAll(".*waves of ([0-9, ]+) ms.*", "$1").split(", ")) {
            assertTrue(Long.parseLong(ms) >= (long) (producerSeconds * 1000), slow.how);
        }
    }

    @Test
    void aBalancesDeviceIsItsRatioTimesTheMeasuredRate() {
        DeviceSpec spec = DeviceSpec.parse("device", "seed-ssd");
        TaskRate rate = new TaskRate(200e6, "measured: test");
        DeviceProfile.Emulation e = spec.resolve(2, 0.25, rate);
        assertEquals(Math.round(spec.profile().balance() * 200e6 * 2), e.writeBytesPerSecond);
    }
}
