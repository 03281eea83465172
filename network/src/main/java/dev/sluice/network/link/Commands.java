package dev.sluice.network.link;

import dev.sluice.core.host.HostCommands;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** The few host commands a link needs ({@code ip}, {@code tc}), each bounded in time. */
final class Commands {
    static final long COMMAND_SECONDS = 30;

    private Commands() {}

    /** Runs {@code command} for at most {@link #COMMAND_SECONDS}; see {@link HostCommands#run}. */
    static String run(List<String> command) throws IOException {
        return HostCommands.run(COMMAND_SECONDS, command);
    }

    static String run(String... command) throws IOException {
        return run(List.of(command));
    }

    static Path program(String program) {
        return HostCommands.program(program);
    }

    static boolean root() {
        return HostCommands.root();
    }

    static boolean alive(long pid) {
        return HostCommands.alive(pid);
    }
}
