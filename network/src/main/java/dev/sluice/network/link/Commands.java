package dev.sluice.network.link;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The few host commands a link needs ({@code ip}, {@code tc}), each bounded in time. */
final class Commands {
    static final long COMMAND_SECONDS = 30;

    private Commands() {}

    /** Runs {@code command}; returns its output, trimmed, or throws with its status and output. */
    static String run(List<String> command) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (InputStream in = process.getInputStream()) {
            in.transferTo(out);
        }
        boolean done;
        try {
            done = process.waitFor(COMMAND_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException(String.join(" ", command) + " interrupted", e);
        }
        if (!done) {
            process.destroyForcibly();
            throw new IOException(String.join(" ", command) + " took over " + COMMAND_SECONDS + " s");
        }
        String text = out.toString(StandardCharsets.UTF_8).trim();
        if (process.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " exited with " + process.exitValue()
                    + (text.isEmpty() ? "" : ": " + text));
        }
        return text;
    }

    static String run(String... command) throws IOException {
        return run(List.of(command));
    }

    /** The path of {@code program} on PATH or in the system directories, or null. */
    static Path program(String program) {
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

    /** Whether this process runs as root (uid 0), read from /proc/self/status. */
    static boolean root() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    return line.split("\\s+")[1].equals("0");
                }
            }
        } catch (IOException e) {
            // not Linux: no namespaces either
        }
        return false;
    }

    static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
}
