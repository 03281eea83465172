package dev.sluice.core.device;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Undoing an emulated device from its record ({@link DeviceState}): in reverse order, every step tried, whether its
 * owner closes it ({@link EmulatedDevice#close}), its shutdown hook does at a signal, or a later run or
 * {@code scripts/sluice device cleanup} finds the record of a process that is gone (a run killed with SIGKILL).
 */
public final class DeviceRecovery {
    private DeviceRecovery() {}

    /**
     * Undoes what the records of processes that are no longer alive name (a run killed with SIGKILL); returns how
     * many it undid. Records of live processes are left alone: their runs are still going.
     */
    public static int cleanUpAbandoned(PrintStream log) throws IOException {
        int undone = 0;
        for (DeviceState state : DeviceState.all()) {
            if (state.pid() == ProcessHandle.current().pid() || Host.alive(state.pid())) {
                continue;
            }
            List<String> problems = tearDown(state);
            undone++;
            log.println("sluice: undid the emulated device of dead process " + state.pid() + " (" + state.file()
                    + ")" + (problems.isEmpty() ? "" : "; not undone: " + String.join("; ", problems)));
        }
        return undone;
    }

    /** The records of devices now set up on this machine, by any process. */
    public static List<String> recorded() throws IOException {
        List<String> all = new ArrayList<>();
        for (DeviceState state : DeviceState.all()) {
            all.add(state + (Host.alive(state.pid()) ? " (its process is running)" : " (its process is gone)"));
        }
        return all;
    }

    /** Undoes what {@code state} records, in reverse order; every step is tried; returns what failed. */
    static List<String> tearDown(DeviceState state) {
        // A run stopped by a signal tears its device down from an interrupted thread: the commands must still run.
        boolean interrupted = Thread.interrupted();
        try {
            return undo(state);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static List<String> undo(DeviceState state) {
        List<String> problems = new ArrayList<>();
        WritebackStarter.undo(state, problems); // first: it holds the mount open
        Throttle.undo(state, problems);
        String bdi = state.get("bdi");
        if (bdi != null) {
            // min_ratio before max_ratio (the kernel keeps min <= max); max_ratio last: writing it sets max_bytes from
            // it (writing max_bytes 0 would set max_ratio to 0).
            try {
                Host.write(Path.of(bdi, "strict_limit"), state.getOrDefault("bdi.strict_limit", "0"));
                Host.write(Path.of(bdi, "min_ratio"), state.getOrDefault("bdi.min_ratio", "0"));
                Host.write(Path.of(bdi, "max_ratio"), state.getOrDefault("bdi.max_ratio", "100"));
            } catch (IOException e) {
                problems.add("restoring " + bdi + ": " + e.getMessage());
            }
        }
        String mount = state.get("mount");
        if (mount != null) {
            if (mounted(mount)) {
                unmount(mount, problems);
            }
            try {
                Files.deleteIfExists(Path.of(mount));
            } catch (IOException e) {
                problems.add("removing the mount point " + mount + ": " + e.getMessage());
            }
        }
        String image = state.get("image");
        if (image != null) {
            String disk = state.get("loop.disk");
            if (disk != null) { // a fluid device: the device over the disk first
                detach(loopsOf(disk, state.get("loop")), problems);
                LoopDevices.undo(state, "loop.queue.made", problems);
            }
            detach(loopsOf(image, disk != null ? disk : state.get("loop")), problems);
            LoopDevices.undo(state, "loop.made", problems);
            try {
                Files.deleteIfExists(Path.of(image));
            } catch (IOException e) {
                problems.add("removing the image " + image + ": " + e.getMessage());
            }
        }
        String base = state.get("base");
        if (base != null) {
            try (java.nio.file.DirectoryStream<Path> left = Files.newDirectoryStream(Path.of(base))) {
                if (!left.iterator().hasNext()) {
                    Files.delete(Path.of(base));
                }
            } catch (java.nio.file.NoSuchFileException gone) {
                // removed already
            } catch (IOException e) {
                problems.add("removing " + base + ": " + e.getMessage());
            }
        }
        if (problems.isEmpty()) {
            try {
                state.delete();
            } catch (IOException e) {
                problems.add("removing the record " + state.file() + ": " + e.getMessage());
            }
        }
        return problems;
    }

    private static void detach(List<String> loops, List<String> problems) {
        for (String loop : loops) {
            try {
                Host.run("losetup", "-d", loop);
            } catch (IOException e) {
                problems.add(e.getMessage());
            }
        }
    }

    private static boolean mounted(String mount) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/mounts"))) {
                String[] f = line.split(" ");
                if (f.length > 1 && f[1].equals(mount)) {
                    return true;
                }
            }
        } catch (IOException e) {
            return true; // try to unmount anyway
        }
        return false;
    }

    /** Unmounts, retrying while busy (files just closed), then lazily as a last resort. */
    private static void unmount(String mount, List<String> problems) {
        IOException last = null;
        for (int attempt = 0; attempt < 10; attempt++) {
            try {
                Host.run("umount", mount);
                return;
            } catch (IOException e) {
                last = e;
                try {
                    Thread.sleep(300);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        try {
            Host.run("umount", "-l", mount);
            problems.add("the mount " + mount + " was busy and is detached lazily (" + last.getMessage() + ")");
        } catch (IOException e) {
            problems.add(e.getMessage());
        }
    }

    /**
     * The loop devices backed by {@code image} (a file, or the disk's loop device): the recorded one if it still is,
     * and any other (a run killed between attaching and recording it).
     */
    private static List<String> loopsOf(String image, String recorded) {
        List<String> loops = new ArrayList<>();
        try {
            for (String line : Host.run("losetup", "-j", image).split("\n")) {
                int colon = line.indexOf(':');
                if (colon > 0) {
                    loops.add(line.substring(0, colon));
                }
            }
        } catch (IOException e) {
            if (recorded != null) {
                loops.add(recorded);
            }
        }
        return loops;
    }
}
