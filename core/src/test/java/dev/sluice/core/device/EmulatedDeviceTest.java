package dev.sluice.core.device;

import static dev.sluice.core.device.DeviceTraces.assertNothingLeft;
import static dev.sluice.core.device.DeviceTraces.imageOf;
import static dev.sluice.core.device.DeviceTraces.loopOf;
import static dev.sluice.core.device.DeviceTraces.loopOver;
import static dev.sluice.core.device.DeviceTraces.mounted;
import static dev.sluice.core.device.DeviceTraces.throttleRule;
import static dev.sluice.core.device.DeviceTraces.writebackStartersUnder;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.spi.Bytes;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An emulated device on this machine, where root and loop devices exist (skipped with the reason elsewhere), made with
 * either mechanism: it is made, a write lands on it, the kernel reports the throttle and the dirty cap as set, and once
 * closed no loop device, mount, throttle rule, bdi setting, image, writeback starter or record of it remains. Runs on a
 * device, signalled and killed, are the command line's tests ({@code EmulatedDeviceRunTest}, {@code
 * DeviceCheckCommandTest}).
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
    void aFluidDeviceIsMadeOnANewLoopDeviceTakesAWriteReportsItsLimitsAndLeavesNothing() throws Exception {
        DeviceProfile.Emulation figures = DeviceSpec.parse("device", "emulated:write=200m:dirty=64m:iops=5000")
                .resolve(1, 1);
        String majMin;
        Path image;
        String loop;
        String disk;
        String diskMajMin;
        Set<Long> started;
        // Asked for less than the rate limit's training writes (728 MiB at 200 MiB/s): the device is made larger.
        try (EmulatedDevice device = EmulatedDevice.create(figures, 256 * Bytes.MiB, dir.resolve("base"),
                new PrintStream(new ByteArrayOutputStream()), false)) {
            assertEquals(DeviceMechanism.FLUID, device.kind(), "the default mechanism");
            assertTrue(device.capacity() > RateLimitTraining.bytes(figures.writeBytesPerSecond),
                    "room for the training: " + device.capacity());
            majMin = device.majMin();
            image = imageOf(dir.resolve("base"));
            disk = loopOf(image);
            assertTrue(Integer.parseInt(disk.substring("loop".length())) >= LoopDevices.FIRST,
                    disk + ": a loop device made new, numbered from " + LoopDevices.FIRST);
            diskMajMin = Files.readString(Path.of("/sys/block", disk, "dev")).trim();
            loop = loopOver(disk);
            assertTrue(Integer.parseInt(loop.substring("loop".length())) >= LoopDevices.FIRST,
                    loop + ": the device over the disk, made new too");
            assertEquals(majMin, Files.readString(Path.of("/sys/block", loop, "dev")).trim(),
                    "the file system and its bdi are on the device over the disk");
            // 40 ms of 200 MiB/s in 128 KiB requests: 64, the most.
            assertEquals("64", Files.readString(Path.of("/sys/block", loop, "queue", "nr_requests")).trim(),
                    "a disk's queue");
            String disk0 = Files.readString(Path.of("/sys/block", disk, "queue", "rotational")).trim();
            assertEquals("0", disk0, "the disk solid-state, for the throttle's short slice");
            assertEquals(String.valueOf(LoopDevices.REQUEST_KIB), Files.readString(Path.of("/sys/block", loop,
                    "queue", "max_sectors_kb")).trim());
            assertTrue(mounted(device.directory().getParent().toString()));
            assertTrue(Files.isWritable(device.directory()));
            Path file = Files.write(device.directory().resolve("x"), new byte[1 << 20]);
            assertEquals(1 << 20, Files.size(file));

            double fraction = KernelDirtyLimits.read().freerunFraction();
            assertTrue(fraction > 0.5 && fraction <= 1, "the freerun fraction " + fraction);
            double expectedCap = 64 * Bytes.MiB / fraction;
            assertEquals(expectedCap, device.capBytes(), expectedCap / 100, "the cap: the cache over the freerun "
                    + "fraction " + fraction);
            assertTrue(device.capBytes() > 64 * Bytes.MiB, "the cap is above the cache: " + device.capBytes());
            String bdi = Path.of("/sys/class/bdi", majMin).toString();
            long maxBytes = Long.parseLong(Files.readString(Path.of(bdi, "max_bytes")).trim());
            long minBytes = Long.parseLong(Files.readString(Path.of(bdi, "min_bytes")).trim());
            assertEquals(device.capBytes(), maxBytes, device.capBytes() / 100.0, "max_bytes, as the kernel keeps it");
            assertEquals(device.capBytes(), minBytes, device.capBytes() / 100.0, "min_bytes, as the kernel keeps it");
            assertEquals("1", Files.readString(Path.of(bdi, "strict_limit")).trim());
            assertEquals(String.valueOf(figures.writeBytesPerSecond), throttleRule("write_bps_device", diskMajMin),
                    "the throttle is the disk's");
            assertEquals("5000", throttleRule("write_iops_device", diskMajMin));
            assertEquals(null, throttleRule("write_bps_device", majMin), "not the queue's over it");
            assertTrue(device.describe().contains("write 209.7 MB/s, 5000 IOPS"), device.describe());
            assertTrue(device.mechanism().contains("fluid: ") && device.mechanism().contains("loop device made new"),
                    device.mechanism());

            started = writebackStartersUnder(dir);
            assertEquals(1, started.size(), "one writeback starter on the device's mount: " + started);
            assertEquals(ProcessHandle.current().pid(), ProcessHandle.of(started.iterator().next())
                    .flatMap(ProcessHandle::parent).map(ProcessHandle::pid).orElse(-1L), "this process's child");

            // A second of the limit, forced: the throttle's first time slice lets a little more through.
            double mbps = device.measureRawWrite(figures.writeBytesPerSecond);
            assertTrue(mbps > 0 && mbps < 2 * figures.writeBytesPerSecond / 1e6, mbps + " MB/s");
        }
        assertNothingLeft(diskMajMin, image, "");
        for (String made : List.of(loop, disk)) {
            assertFalse(Files.exists(Path.of("/sys/block", made)), "the loop device made for the device is removed: "
                    + made);
            assertFalse(Files.exists(Path.of("/dev", made)), "and its node, which would keep the number taken: "
                    + made);
        }
        assertFalse(Files.exists(Path.of("/sys/class/bdi", majMin)), "and its bdi with it: " + majMin);
        assertEquals(Set.of(), writebackStartersUnder(dir), "the writeback starter " + started + " still runs");
        assertFalse(Files.exists(dir.resolve("base")), "the directory the device made is removed with it");
    }

    @Test
    @Timeout(120)
    void aLegacyDeviceCapsItsDirtyPagesAtTheCacheWithoutAFloorOrAWritebackStarterAndLeavesNothing()
            throws Exception {
        DeviceProfile.Emulation figures = DeviceSpec.parse("device", "emulated:write=200m:dirty=64m").resolve(1, 1);
        String majMin;
        Path image;
        try (EmulatedDevice device = EmulatedDevice.create(figures, Bytes.GiB, dir.resolve("base"),
                new PrintStream(new ByteArrayOutputStream()), false, DeviceMechanism.LEGACY)) {
            assertEquals(DeviceMechanism.LEGACY, device.kind());
            majMin = device.majMin();
            image = imageOf(dir.resolve("base"));
            assertTrue(mounted(device.directory().getParent().toString()));
            Path file = Files.write(device.directory().resolve("x"), new byte[1 << 20]);
            assertEquals(1 << 20, Files.size(file));
            assertEquals(64 * Bytes.MiB, device.capBytes(), "the cap is the cache itself");
            String bdi = Path.of("/sys/class/bdi", majMin).toString();
            long maxBytes = Long.parseLong(Files.readString(Path.of(bdi, "max_bytes")).trim());
            assertEquals(64 * Bytes.MiB, maxBytes, 64 * Bytes.MiB / 100.0, "the dirty cap, as the kernel keeps it");
            assertEquals("0", Files.readString(Path.of(bdi, "min_ratio")).trim(), "min_ratio untouched");
            assertEquals("0", Files.readString(Path.of(bdi, "min_bytes")).trim(), "no floor");
            assertEquals("1", Files.readString(Path.of(bdi, "strict_limit")).trim());
            assertEquals(String.valueOf(figures.writeBytesPerSecond), throttleRule("write_bps_device", majMin));
            assertTrue(device.mechanism().contains("legacy: ") && !device.mechanism().contains("syncfs"),
                    device.mechanism());
            assertEquals(Set.of(), writebackStartersUnder(dir), "a legacy device starts no writeback");
        }
        assertNothingLeft(majMin, image, "");
        Path bdi = Path.of("/sys/class/bdi", majMin);
        if (Files.exists(bdi)) { // a reused loop device stays; its bdi is as it was
            assertEquals("0", Files.readString(bdi.resolve("min_ratio")).trim());
        }
        assertFalse(Files.exists(dir.resolve("base")), "the directory the device made is removed with it");
    }
}
