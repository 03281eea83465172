package dev.sluice.core.device;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The kernel's block throttling of one device, in whichever form this machine has it: cgroup v1's blkio controller
 * (rules on the device in the root cgroup, which the kernel's writeback runs in, so buffered writes are throttled when
 * they reach the device), or cgroup v2's {@code io.max} in a cgroup of its own that the measured JVM moves into (cgroup
 * writeback charges its buffered writes to it). What it sets is recorded in the device's state first, so that it can
 * be undone after a crash.
 */
abstract class Throttle {
    /** The mechanism in words, for results and messages. */
    abstract String describe();

    /** Sets the limits on device {@code majMin}, recording in {@code state} what undoes them. */
    abstract void apply(String majMin, DeviceProfile.Emulation figures, DeviceState state) throws IOException;

    /**
     * This machine's throttle, or null with {@code why} told the reason: v1 blkio where it is mounted, else v2 with
     * the io controller available.
     */
    static Throttle find(List<String> why) {
        Path v1 = null;
        Path v2 = null;
        try {
            for (String line : Files.readAllLines(Path.of("/proc/mounts"))) {
                String[] f = line.split(" ");
                if (f.length < 4) {
                    continue;
                }
                if (f[2].equals("cgroup") && List.of(f[3].split(",")).contains("blkio")) {
                    v1 = Path.of(f[1]);
                } else if (f[2].equals("cgroup2")) {
                    v2 = Path.of(f[1]);
                }
            }
        } catch (IOException e) {
            why.add("/proc/mounts cannot be read (" + e.getMessage() + ")");
            return null;
        }
        if (v1 != null && Files.isWritable(v1.resolve(BlkioV1.WRITE_BPS))) {
            return new BlkioV1(v1);
        }
        if (v2 != null) {
            try {
                String controllers = Host.read(v2.resolve("cgroup.controllers"));
                if (List.of(controllers.split(" ")).contains("io")) {
                    return new IoMaxV2(v2);
                }
                why.add("cgroup v2 at " + v2 + " has no io controller (cgroup.controllers: " + controllers + ")");
            } catch (IOException e) {
                why.add("cgroup v2 at " + v2 + " cannot be read (" + e.getMessage() + ")");
            }
        }
        if (v1 == null && v2 == null) {
            why.add("no cgroup v1 blkio nor cgroup v2 hierarchy is mounted");
        } else if (v1 != null) {
            why.add("cgroup v1 blkio at " + v1 + " has no writable " + BlkioV1.WRITE_BPS);
        }
        return null;
    }

    /** Undoes what {@code state} recorded (any mechanism); problems are added to {@code problems}. */
    static void undo(DeviceState state, List<String> problems) {
        String v1 = state.get("throttle.v1");
        if (v1 != null) {
            BlkioV1.undo(Path.of(v1), state, problems);
        }
        String v2 = state.get("throttle.v2");
        if (v2 != null) {
            IoMaxV2.undo(Path.of(v2), state, problems);
        }
    }

    /** cgroup v1: {@code blkio.throttle.*_device} rules in the root cgroup. */
    static final class BlkioV1 extends Throttle {
        static final String WRITE_BPS = "blkio.throttle.write_bps_device";
        static final String READ_BPS = "blkio.throttle.read_bps_device";
        static final String WRITE_IOPS = "blkio.throttle.write_iops_device";
        static final String READ_IOPS = "blkio.throttle.read_iops_device";
        private static final List<String> FILES = List.of(WRITE_BPS, READ_BPS, WRITE_IOPS, READ_IOPS);
        private final Path root;

        BlkioV1(Path root) {
            this.root = root;
        }

        @Override
        String describe() {
            return "cgroup v1 blkio throttle on the loop device (" + root + ")";
        }

        @Override
        void apply(String majMin, DeviceProfile.Emulation figures, DeviceState state) throws IOException {
            // What the rules were before (normally none), so that undoing restores them.
            for (String file : FILES) {
                state.put("throttle.v1.before." + file, rule(root.resolve(file), majMin));
            }
            state.put("throttle.v1", root.toString());
            state.put("throttle.majMin", majMin); // a fluid device's disk, under the device with the file system
            Map<String, Long> values = Map.of(WRITE_BPS, figures.writeBytesPerSecond, READ_BPS,
                    figures.readBytesPerSecond, WRITE_IOPS, figures.iops, READ_IOPS, figures.iops);
            for (String file : FILES) {
                long value = values.get(file);
                if (value > 0) {
                    Host.write(root.resolve(file), majMin + " " + value);
                }
            }
        }

        /** The value of the rule on {@code majMin} in {@code file}, "0" if none. */
        private static String rule(Path file, String majMin) throws IOException {
            for (String line : Host.read(file).split("\n")) {
                String[] f = line.trim().split("\\s+");
                if (f.length == 2 && f[0].equals(majMin)) {
                    return f[1];
                }
            }
            return "0";
        }

        static void undo(Path root, DeviceState state, List<String> problems) {
            String majMin = state.getOrDefault("throttle.majMin", state.get("majMin"));
            for (String file : FILES) {
                try {
                    Host.write(root.resolve(file), majMin + " " + state.getOrDefault("throttle.v1.before." + file,
                            "0"));
                } catch (IOException e) {
                    problems.add("restoring " + root.resolve(file) + " for " + majMin + ": " + e.getMessage());
                }
            }
        }
    }

    /** cgroup v2: {@code io.max} in a cgroup made for the run, which the measured JVM moves into. */
    static final class IoMaxV2 extends Throttle {
        private final Path root;

        IoMaxV2(Path root) {
            this.root = root;
        }

        @Override
        String describe() {
            return "cgroup v2 io.max in a cgroup of the measured JVM (" + root + ")";
        }

        @Override
        void apply(String majMin, DeviceProfile.Emulation figures, DeviceState state) throws IOException {
            String from = currentCgroup();
            Path group = root.resolve("sluice-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
            Path parent = root.resolve(from.replaceFirst("^/", "")).normalize();
            List<String> added = new ArrayList<>();
            String subtree = Host.read(parent.resolve("cgroup.subtree_control"));
            for (String controller : List.of("io", "memory")) {
                if (!List.of(subtree.split(" ")).contains(controller)) {
                    added.add(controller);
                }
            }
            state.put("throttle.v2", root.toString());
            state.put("throttle.v2.parent", parent.toString());
            state.put("throttle.v2.added", String.join(",", added));
            for (String controller : added) {
                Host.write(parent.resolve("cgroup.subtree_control"), "+" + controller);
            }
            state.put("throttle.v2.group", group.toString());
            Files.createDirectory(group);
            List<String> limits = new ArrayList<>();
            if (figures.writeBytesPerSecond > 0) {
                limits.add("wbps=" + figures.writeBytesPerSecond);
            }
            if (figures.readBytesPerSecond > 0) {
                limits.add("rbps=" + figures.readBytesPerSecond);
            }
            if (figures.iops > 0) {
                limits.add("wiops=" + figures.iops);
                limits.add("riops=" + figures.iops);
            }
            Host.write(group.resolve("io.max"), majMin + " " + String.join(" ", limits));
            Host.write(group.resolve("cgroup.procs"), String.valueOf(ProcessHandle.current().pid()));
        }

        /** This process's cgroup v2 path ("0::/path" in /proc/self/cgroup). */
        private static String currentCgroup() throws IOException {
            for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
                if (line.startsWith("0::")) {
                    return line.substring(3);
                }
            }
            return "/";
        }

        static void undo(Path root, DeviceState state, List<String> problems) {
            Path parent = Path.of(state.getOrDefault("throttle.v2.parent", root.toString()));
            String group = state.get("throttle.v2.group");
            if (group != null) {
                Path dir = Path.of(group);
                try {
                    // Anything still in it (this JVM, or nothing after a crash) goes back where it came from.
                    if (Files.exists(dir.resolve("cgroup.procs"))) {
                        for (String pid : Host.read(dir.resolve("cgroup.procs")).split("\n")) {
                            if (!pid.isBlank()) {
                                Host.write(parent.resolve("cgroup.procs"), pid.trim());
                            }
                        }
                    }
                    Files.deleteIfExists(dir);
                } catch (IOException e) {
                    problems.add("removing cgroup " + dir + ": " + e.getMessage());
                }
            }
            String added = state.getOrDefault("throttle.v2.added", "");
            for (String controller : added.isEmpty() ? new String[0] : added.split(",")) {
                try {
                    Host.write(parent.resolve("cgroup.subtree_control"), "-" + controller);
                } catch (IOException e) {
                    problems.add("disabling " + controller + " in " + parent + ": " + e.getMessage());
                }
            }
        }
    }
}
