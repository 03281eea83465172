package dev.sluice.core.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
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

    /** The {@code major:minor} of the loop device {@code image} is attached to (a fluid device's disk). */
    public static String majMinOf(Path image) throws Exception {
        Process p = new ProcessBuilder("losetup", "-j", image.toString()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        String loop = out.substring(0, out.indexOf(':'));
        return Files.readString(Path.of("/sys/block", Path.of(loop).getFileName().toString(), "dev")).trim();
    }

    /** The loop device {@code image} is attached to, as its name in /sys/block ({@code loopN}). */
    public static String loopOf(Path image) throws Exception {
        Process p = new ProcessBuilder("losetup", "-j", image.toString()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        return Path.of(out.substring(0, out.indexOf(':'))).getFileName().toString();
    }

    /** The loop device attached over the loop device {@code disk} ({@code loopN}), as a fluid device's is. */
    public static String loopOver(String disk) throws IOException {
        for (int n : loopNumbers()) {
            Path backing = Path.of("/sys/block/loop" + n, "loop", "backing_file");
            if (Files.exists(backing) && Files.readString(backing).trim().equals("/dev/" + disk)) {
                return "loop" + n;
            }
        }
        throw new AssertionError("no loop device over /dev/" + disk);
    }

    /** The numbers of the loop devices that exist now (/sys/block/loopN). */
    public static Set<Integer> loopNumbers() throws IOException {
        Set<Integer> numbers = new TreeSet<>();
        try (Stream<Path> devices = Files.list(Path.of("/sys/block"))) {
            devices.map(p -> p.getFileName().toString()).filter(n -> n.matches("loop[0-9]+"))
                    .forEach(n -> numbers.add(Integer.parseInt(n.substring(4))));
        }
        return numbers;
    }

    /**
     * The loop devices from {@link LoopDevices#FIRST} up (Sluice's own) that exist now, were not in {@code before},
     * and are either attached to a file under {@code dir} or to none (made and left): another run's device, attached
     * to its own image elsewhere, is not counted.
     */
    public static Set<Integer> newLoopDevices(Set<Integer> before, Path dir) throws IOException {
        String under = dir.toAbsolutePath().normalize() + "/";
        Set<Integer> made = new TreeSet<>();
        for (int n : loopNumbers()) {
            if (n < LoopDevices.FIRST || before.contains(n)) {
                continue;
            }
            Path backing = Path.of("/sys/block/loop" + n, "loop", "backing_file");
            try {
                if (!Files.exists(backing) || Files.readString(backing).trim().startsWith(under)) {
                    made.add(n);
                }
            } catch (IOException detached) {
                made.add(n);
            }
        }
        return made;
    }

    /**
     * The writeback starters running now (perl processes with {@link WritebackStarter#MARK} in their command line),
     * pid to command line (its arguments joined by spaces).
     */
    public static Map<Long, String> writebackStarters() {
        Map<Long, String> starters = new TreeMap<>();
        ProcessHandle.allProcesses().forEach(h -> {
            try {
                String cmdline = new String(Files.readAllBytes(Path.of("/proc", String.valueOf(h.pid()), "cmdline")),
                        StandardCharsets.UTF_8).replace('\0', ' ');
                if (cmdline.startsWith("perl ") && cmdline.contains(WritebackStarter.MARK)) {
                    starters.put(h.pid(), cmdline);
                }
            } catch (IOException gone) {
                // it ended while listed
            }
        });
        return starters;
    }

    /** The writeback starters running now on a mount under {@code dir} (another run's are elsewhere). */
    public static Set<Long> writebackStartersUnder(Path dir) {
        String under = " " + dir.toAbsolutePath().normalize() + "/";
        Set<Long> pids = new TreeSet<>();
        writebackStarters().forEach((pid, cmdline) -> {
            if (cmdline.contains(under)) {
                pids.add(pid);
            }
        });
        return pids;
    }

    /** Whether anything is mounted at or under {@code dir}. */
    public static boolean anythingMountedUnder(Path dir) throws IOException {
        String prefix = dir.toAbsolutePath().normalize().toString();
        return Files.readAllLines(Path.of("/proc/mounts")).stream().map(l -> l.split(" ")[1])
                .anyMatch(m -> m.equals(prefix) || m.startsWith(prefix + "/"));
    }

    /** What {@code dir} holds (names), empty if nothing. */
    public static List<String> listing(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
        }
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
        return DeviceRecovery.recorded().stream().filter(r -> !r.endsWith("(its process is running)")
                        || r.contains("device-" + ProcessHandle.current().pid() + "-"))
                .collect(Collectors.toList());
    }
}
