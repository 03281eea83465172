package dev.sluice.core.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * What an emulated device leaves on this machine, read back from the kernel: its loop device, mount, throttle rules,
 * bdi settings, image and record. Shared by core's test of the device and the command line's tests of runs on one.
 */
public final class DeviceTraces {
    private DeviceTraces() {}

    /** The device's image under {@code base}, the directory it was made in. */
    public static Path imageOf(Path base) throws IOException {
        try (Stream<Path> files = Files.list(base)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".img")).findFirst()
                    .orElseThrow(() -> new AssertionError("no image in " + base));
        }
    }

    /** The {@code major:minor} of the loop device {@code image} is attached to. */
    public static String majMinOf(Path image) throws Exception {
        Process p = new ProcessBuilder("losetup", "-j", image.toString()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        String loop = out.substring(0, out.indexOf(':'));
        return Files.readString(Path.of("/sys/block", Path.of(loop).getFileName().toString(), "dev")).trim();
    }

    public static boolean mounted(String mount) throws IOException {
        return Files.readAllLines(Path.of("/proc/mounts")).stream().anyMatch(l -> l.split(" ")[1].equals(mount));
    }

    /** The rule on {@code majMin} in a cgroup v1 blkio throttle file, or null. */
    public static String throttleRule(String file, String majMin) throws IOException {
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

    /** No loop device, mount, throttle rule, bdi setting, image or record of the device remains. */
    public static void assertNothingLeft(String majMin, Path image, String log) throws Exception {
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
    public static List<String> records() throws IOException {
        return EmulatedDevice.recorded().stream().filter(r -> !r.endsWith("(its process is running)")
                        || r.contains("device-" + ProcessHandle.current().pid() + "-"))
                .collect(Collectors.toList());
    }
}
