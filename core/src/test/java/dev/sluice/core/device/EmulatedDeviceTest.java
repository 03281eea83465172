package dev.sluice.core.device;

import static dev.sluice.core.device.DeviceTraces.assertNothingLeft;
import static dev.sluice.core.device.DeviceTraces.imageOf;
import static dev.sluice.core.device.DeviceTraces.mounted;
import static dev.sluice.core.device.DeviceTraces.throttleRule;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.spi.Bytes;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An emulated device on this machine, where root and loop devices exist (skipped with the reason elsewhere): it is
 * made, a write lands on it, the kernel reports the throttle and the dirty cap as set, and once closed no loop device,
 * mount, throttle rule, bdi setting, image or record of it remains. Runs on a device, signalled and killed, are the
 * command line's tests ({@code EmulatedDeviceRunTest}).
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
}
