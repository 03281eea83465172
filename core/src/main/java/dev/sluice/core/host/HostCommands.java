package dev.sluice.core.host;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The host's commands and facts that emulated devices (losetup, mkfs, mount) and emulated links (ip, tc) need: a
 * command run with a time limit, a program found, whether we are root, whether a process lives.
 */
public final class HostCommands {
    private HostCommands() {}

    /**
     * Runs {@code command}, its standard error merged into its output, for at most {@code seconds}; returns the output,
     * trimmed, or throws with the command, its status and its output. An interrupt kills it.
     */
    public static String run(long seconds, List<String> command) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (InputStream in = process.getInputStream()) {
            in.transferTo(out);
        }
        boolean done;
        try {
            done = process.waitFor(seconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException(String.join(" ", command) + " interrupted", e);
        }
        if (!done) {
            process.destroyForcibly();
            throw new IOException(String.join(" ", command) + " took over " + seconds + " s");
        }
        String text = out.toString(StandardCharsets.UTF_8).trim();
        if (process.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " exited with " + process.exitValue()
                    + (text.isEmpty() ? "" : ": " + text));
        }
        return text;
    }

    /** The path of {@code program} on PATH or in the system directories, or null. */
    public static Path program(String program) {
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(":")));
        dirs.addAll(List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin"));
        for (String dir : dirs) {
            if (!dir.isEmpty()) {
                Path candidate = Path.of(dir, program);
                if (Files.isExecutable(candidate)) {
                    return candidate;
                }
            }
        }
        return null;
    }

    /** Whether this process runs as root (uid 0), read from /proc/self/status; false where there is none. */
    public static boolean root() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    return line.split("\\s+")[1].equals("0");
                }
            }
        } catch (IOException e) {
            // not Linux: no loop devices, cgroups or namespaces either
        }
        return false;
    }

    /** Whether process {@code pid} is alive. */
    public static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
}
