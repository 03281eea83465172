package dev.sluice.core.device;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Starts a device's writeback from its first dirty byte, as a disk drains its cache, where the kernel would wait until
 * the device's dirty pages reach its freerun ceiling: a small process that calls {@code syncfs} on the device's file
 * system over and over (each call writes back what is dirty when it starts and waits for it, so the device is never
 * idle while anything is dirty), pausing {@link #pauseMillis()} ms between calls. It is Perl because Java has no
 * {@code syncfs} and Perl is on every Debian system (perl-base is essential); it exits by itself when the process that
 * started it is gone, so that a killed run does not keep the mount busy, and its pid is recorded for the teardown.
 */
final class WritebackStarter {
    /**
     * The pause between two calls, in ms, unless {@code $SLUICE_WRITEBACK_PAUSE_MS} (an environment variable, which
     * JMH's forks inherit) says otherwise: for measuring what the starter's rhythm costs (docs/balance.md: at 5, 25
     * and 100 ms the same answer).
     */
    static final int DEFAULT_PAUSE_MILLIS = 5;

    static final String PAUSE_ENV = "SLUICE_WRITEBACK_PAUSE_MS";

    /** The pause this process's devices take: {@code $SLUICE_WRITEBACK_PAUSE_MS}, else the default. */
    static int pauseMillis() {
        return pauseMillis(System.getenv(PAUSE_ENV));
    }

    /** The pause {@code given} names (whole ms, 1 to 1000), or the default where none is given. */
    static int pauseMillis(String given) {
        if (given == null || given.isBlank()) {
            return DEFAULT_PAUSE_MILLIS;
        }
        try {
            int ms = Integer.parseInt(given.trim());
            if (ms >= 1 && ms <= 1000) {
                return ms;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new IllegalArgumentException("invalid " + PAUSE_ENV + " '" + given + "': allowed are whole "
                + "milliseconds from 1 to 1000");
    }
    /** A word in its command line, so that a teardown kills only what it started, never a reused pid. */
    static final String MARK = "sluice-writeback-starter";
    private static final String SCRIPT = String.join("\n",
            "my ($mark, $dir, $ms, $nr) = @ARGV; my $parent = getppid();",
            "$nr = do { require 'syscall.ph'; &SYS_syncfs() } if $nr < 0;",
            "opendir(my $d, $dir) or die \"$dir: $!\";",
            "$| = 1; print \"ready\\n\";",
            "while (getppid() == $parent) {",
            "  syscall($nr, fileno($d)) == 0 or die \"syncfs: $!\";",
            "  select(undef, undef, undef, $ms / 1000);",
            "}");

    /** syncfs's number on this architecture (unistd tables), or -1 to ask Perl's syscall.ph. */
    private static int syncfsNumber() {
        switch (System.getProperty("os.arch")) {
            case "amd64":
            case "x86_64":
                return 306;
            case "aarch64":
                return 267;
            default:
                return -1;
        }
    }

    private WritebackStarter() {}

    /** Starts it on {@code mount}, recording its pid in {@code state}; waits until it has the directory open. */
    static void start(Path mount, DeviceState state) throws IOException {
        Process p = new ProcessBuilder(List.of("perl", "-e", SCRIPT, MARK, mount.toString(),
                String.valueOf(pauseMillis()), String.valueOf(syncfsNumber()))).redirectErrorStream(true).start();
        state.put("writeback.pid", String.valueOf(p.pid()));
        String first = readLine(p);
        if (!"ready".equals(first)) {
            p.destroyForcibly();
            throw new IOException("the writeback starter (perl, syncfs) did not start: " + first);
        }
    }

    private static String readLine(Process p) throws IOException {
        StringBuilder line = new StringBuilder();
        var in = p.getInputStream();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            int c = in.read();
            if (c < 0 || c == '\n') {
                break;
            }
            line.append((char) c);
        }
        return line.toString().trim();
    }

    /** Stops the one {@code state} names, if it still runs; waits for it to exit (it holds the mount open). */
    static void undo(DeviceState state, List<String> problems) {
        String pid = state.get("writeback.pid");
        if (pid == null) {
            return;
        }
        ProcessHandle.of(Long.parseLong(pid)).filter(WritebackStarter::ours).ifPresent(h -> {
            h.destroy();
            try {
                h.onExit().get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                h.destroyForcibly();
                try {
                    h.onExit().get(10, TimeUnit.SECONDS);
                } catch (Exception again) {
                    problems.add("the writeback starter " + pid + " did not exit: " + again);
                }
            }
        });
    }

    private static boolean ours(ProcessHandle h) {
        try {
            byte[] cmdline = Files.readAllBytes(Path.of("/proc", String.valueOf(h.pid()), "cmdline"));
            return new String(cmdline, StandardCharsets.UTF_8).contains(MARK);
        } catch (IOException gone) {
            return false;
        }
    }
}
