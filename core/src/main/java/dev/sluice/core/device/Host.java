package dev.sluice.core.device;

import dev.sluice.core.host.HostCommands;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The few things of the host an emulated device needs: its commands ({@link HostCommands}) and kernel files. */
final class Host {
    /** How long a device command (losetup, mkfs.ext4, mount, umount) may take. */
    static final long COMMAND_SECONDS = 300;

    private Host() {}

    /** Runs {@code command} for at most {@link #COMMAND_SECONDS}; see {@link HostCommands#run}. */
    static String run(String... command) throws IOException {
        return HostCommands.run(COMMAND_SECONDS, List.of(command));
    }

    static Path program(String program) {
        return HostCommands.program(program);
    }

    static boolean root() {
        return HostCommands.root();
    }

    static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8).trim();
    }

    /** Writes {@code value} to a kernel file in one call, as {@code echo value > file} does. */
    static void write(Path file, String value) throws IOException {
        Files.writeString(file, value + "\n", StandardCharsets.UTF_8);
    }

    static boolean alive(long pid) {
        return HostCommands.alive(pid);
    }
}
