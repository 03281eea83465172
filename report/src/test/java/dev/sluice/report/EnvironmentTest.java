package dev.sluice.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EnvironmentTest {
    @TempDir
    Path dir;

    @Test
    void readsWholeSysctlValuesAndSurvivesARoundTrip() throws Exception {
        Environment env = Environment.probe(dir, "some jdk", "abc123");
        for (String setting : Environment.DIRTY_SETTINGS) {
            Path file = Path.of("/proc/sys/vm", setting);
            if (Files.isReadable(file)) {
                // Multi-digit values (dirty_expire_centisecs is 3000 by default) must come back whole.
                assertEquals(Files.readAllLines(file).get(0).trim(), env.get("vm." + setting), setting);
            }
        }
        assertEquals(String.valueOf(Runtime.getRuntime().availableProcessors()), env.get("cores"));
        Path file = dir.resolve("environment.json");
        env.write(file);
        assertEquals(env.values(), Environment.read(file).values());
        assertEquals(List.of("some jdk", "abc123"), List.of(env.get("jdk"), env.get("gitCommit")));
    }

    @Test
    void theEnvironmentOfARunOnAnEmulatedDeviceRecordsItsFiguresAndMeasuredRawWrites() throws Exception {
        String secondary = "\"secondaryMetrics\":{\"device.writeMBps\":{\"score\":67.6},\"device.dirtyMB\":{\"score\":654.0},"
                + "\"device.iops\":{\"score\":0.0},\"device.rawWriteMBps\":{\"score\":%s}}";
        String rows = "[" + String.join(",",
                row("seed-ssd", "per-batch", String.format(Locale.ROOT, secondary, "66.1")),
                row("seed-ssd", "buffered", String.format(Locale.ROOT, secondary, "69.9")),
                row("native", "per-batch", "\"secondaryMetrics\":{}")) + "]";
        Path json = Files.writeString(dir.resolve("result.json"), rows);
        Environment env = Environment.probe(dir, "some jdk", "abc123").withDevices(JmhResults.read(json));
        assertEquals("emulated, write 67.6 MB/s, dirty 654 MB, no IOPS limit (2 configurations); raw write of one copy "
                + "measured when each trial's device was made: 66.1 to 69.9 MB/s, mean 68.0", env.get("device seed-ssd"));
        assertEquals("native: the benchmark directory as given (1 configurations)", env.get("device native"));
        assertTrue(env.get("deviceMechanism").contains("dirty cache capped by the device's bdi with strict_limit, fluid"),
                env.get("deviceMechanism"));
        assertEquals("unknown", Environment.probe(dir, "some jdk", "abc123").withDevices(List.of()).get("deviceMechanism"));
    }

    @Test
    void theEnvironmentOfABalanceRecordsTheTaskRateItsDeviceWasSetFrom() throws Exception {
        String secondary = "\"secondaryMetrics\":{\"device.writeMBps\":{\"score\":66.4},\"device.dirtyMB\":{\"score\":523.5},"
                + "\"device.iops\":{\"score\":0.0},\"device.rawWriteMBps\":{\"score\":66.6},"
                + "\"device.taskRateMBps\":{\"score\":42.9}}";
        Path json = Files.writeString(dir.resolve("result.json"), "[" + row("seed-ssd", "per-batch", secondary) + "]");
        Environment env = Environment.probe(dir, "some jdk", "abc123").withDevices(JmhResults.read(json));
        assertTrue(env.get("device seed-ssd").contains("write 66.4 MB/s, dirty 524 MB, no IOPS limit, set relative to "
                + "this harness's task rate of 42.9 MB/s per task"), env.get("device seed-ssd"));
    }

    private static String row(String device, String strategy, String secondary) {
        return String.format(Locale.ROOT, "{\"benchmark\":\"dev.sluice.jmh.write.ShuffleWriteBenchmark.wave\","
                + "\"params\":{\"device\":\"%s\",\"size\":\"small\",\"strategy\":\"%s\"},"
                + "\"primaryMetric\":{\"score\":100,\"scoreUnit\":\"ms/op\",\"rawData\":[[100,100]]},%s}",
                device, strategy, secondary);
    }
}
