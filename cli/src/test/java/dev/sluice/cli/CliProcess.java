package dev.sluice.cli;

import dev.sluice.core.host.JvmFlags;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The command line in a process of its own, as a user runs it, with its stderr collected and a latch that opens when
 * the wave starts: what the signal tests send their signals to.
 */
public final class CliProcess {
    public final Process process;
    private final StringBuilder err = new StringBuilder();
    private final CountDownLatch writing = new CountDownLatch(1);
    private final Thread reader;

    private CliProcess(Process process) {
        this.process = process;
        this.reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getErrorStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    synchronized (err) {
                        err.append(line).append('\n');
                    }
                    if (line.startsWith("sluice: writing ") && line.endsWith("...")) {
                        writing.countDown();
                    }
                }
            } catch (IOException e) {
                // the process ended
            }
        });
        reader.start();
    }

    /**
     * Starts {@code SluiceCli} with {@code args}. A shell without job control starts background commands with SIGINT
     * ignored, and a JVM started so keeps ignoring it: where perl is on PATH it puts the default back before it
     * becomes the JVM (as a terminal's Ctrl-C finds it).
     */
    public static CliProcess start(List<String> args) throws IOException {
        return start(SluiceCli.class, args, ProcessBuilder.Redirect.DISCARD);
    }

    /** Starts {@code main} (a command line class) with {@code args}, its stdout going to {@code out}. */
    public static CliProcess start(Class<?> main, List<String> args, ProcessBuilder.Redirect out) throws IOException {
        List<String> command = new ArrayList<>();
        if (onPath("perl")) {
            command.addAll(List.of("perl", "-e", "$SIG{INT} = 'DEFAULT'; exec @ARGV or die \"exec: $!\""));
        }
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JvmFlags.required(Runtime.version().feature()));
        command.addAll(List.of(JvmFlags.HEAP_MAX, "-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(args);
        return new CliProcess(new ProcessBuilder(command).redirectOutput(out).start());
    }

    /** Waits until the wave starts (its "writing ..." line). */
    public boolean awaitWave(long seconds) throws InterruptedException {
        return writing.await(seconds, TimeUnit.SECONDS);
    }

    /** Sends {@code signal} (INT, TERM, KILL) with kill(1). */
    public void signal(String signal) throws IOException, InterruptedException {
        new ProcessBuilder("kill", "-" + signal, String.valueOf(process.pid())).inheritIO().start().waitFor();
    }

    /** Waits for the process to end (killing it if it does not) and returns its stderr. */
    public String finish(long seconds) throws InterruptedException {
        boolean ended = process.waitFor(seconds, TimeUnit.SECONDS);
        if (!ended) {
            process.destroyForcibly();
        }
        reader.join(TimeUnit.SECONDS.toMillis(30));
        String log;
        synchronized (err) {
            log = err.toString();
        }
        if (!ended) {
            throw new AssertionError("the process did not end within " + seconds + " s: " + log);
        }
        return log;
    }

    /** What stderr held so far. */
    public String err() {
        synchronized (err) {
            return err.toString();
        }
    }

    private static boolean onPath(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }
}
