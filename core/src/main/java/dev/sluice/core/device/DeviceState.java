package dev.sluice.core.device;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an emulated device set up on this machine, one {@code key=value} line per step, each written through to the
 * kernel before or right after the step, so that a run killed outright (SIGKILL) leaves a record of everything it
 * changed: the image file, the loop device, the mount, the throttle rules and the bdi settings with the values they
 * had before. The next run, or {@code scripts/sluice device cleanup}, undoes what a dead run's record names
 * ({@link DeviceRecovery#cleanUpAbandoned}).
 */
final class DeviceState {
    /** Where state files live: {@code -Dsluice.deviceStateDir}, or {@code sluice-devices} in the temp directory. */
    static Path directory() {
        String given = System.getProperty("sluice.deviceStateDir");
        return given != null ? Path.of(given) : Path.of(System.getProperty("java.io.tmpdir"), "sluice-devices");
    }

    private final Path file;
    private final Map<String, String> values = new LinkedHashMap<>();
    private FileChannel channel;

    private DeviceState(Path file) {
        this.file = file;
    }

    /** A new record for a device of this process. */
    static DeviceState create() throws IOException {
        Path dir = directory();
        Files.createDirectories(dir);
        long pid = ProcessHandle.current().pid();
        DeviceState state = new DeviceState(dir.resolve("device-" + pid + "-" + System.nanoTime() + ".state"));
        state.channel = FileChannel.open(state.file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        state.put("pid", String.valueOf(pid));
        return state;
    }

    /** The records in the state directory. */
    static List<DeviceState> all() throws IOException {
        List<DeviceState> states = new ArrayList<>();
        Path dir = directory();
        if (!Files.isDirectory(dir)) {
            return states;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "device-*.state")) {
            for (Path file : files) {
                DeviceState state = new DeviceState(file);
                for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                    int eq = line.indexOf('=');
                    if (eq > 0) {
                        state.values.put(line.substring(0, eq), line.substring(eq + 1));
                    }
                }
                states.add(state);
            }
        }
        return states;
    }

    /** Records a step; the line reaches the kernel before this returns. */
    synchronized void put(String key, String value) throws IOException {
        if (value.contains("\n")) {
            throw new IllegalArgumentException("a state value on one line: " + value);
        }
        values.put(key, value);
        if (channel != null) {
            channel.write(ByteBuffer.wrap((key + "=" + value + "\n").getBytes(StandardCharsets.UTF_8)));
        }
    }

    synchronized String get(String key) {
        return values.get(key);
    }

    synchronized String getOrDefault(String key, String fallback) {
        return values.getOrDefault(key, fallback);
    }

    long pid() {
        return Long.parseLong(getOrDefault("pid", "-1"));
    }

    Path file() {
        return file;
    }

    /** Everything is undone: the record goes. */
    synchronized void delete() throws IOException {
        if (channel != null) {
            channel.close();
            channel = null;
        }
        Files.deleteIfExists(file);
    }

    @Override
    public synchronized String toString() {
        return file + " " + values;
    }
}
