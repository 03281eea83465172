package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.network.link.EmulatedLink;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code scripts/net-send --link}: a bad link is refused with exit status 2 naming it, before anything is made; and,
 * where root exists (each such test is skipped with the reason elsewhere), an emulated link is made, a map output
 * crosses it and is verified, the throughput measured through it is within 15% of the rate set, and after a normal
 * run, SIGINT or SIGTERM mid-run, and SIGKILL plus {@code scripts/sluice link cleanup}, no namespace of the run (and
 * so no qdisc: it lives on the namespace's loopback) and no record remains, and the machine's own loopback qdisc is
 * as it was.
 */
class EmulatedLinkTest {
    private static final Pattern MEASURED = Pattern.compile("\"linkMeasuredBits\":([0-9]+)");

    @TempDir
    Path dir;

    private static String[] run(List<String> args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = SendCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new String[] {Integer.toString(status), out.toString(StandardCharsets.UTF_8),
                err.toString(StandardCharsets.UTF_8)};
    }

    @Test
    void aBadLinkExitsWithStatusTwoNamingTheParameterAndTheValueBeforeAnythingIsMade() throws IOException {
        List<String> before = EmulatedLink.recorded();
        String[] r = run(List.of("--link", "emulated:rate=fast"));
        assertEquals("2", r[0], r[2]);
        assertTrue(r[2].contains("invalid --link 'emulated:rate=fast': allowed is rate=RATE"), r[2]);
        String[] delay = run(List.of("--link", "emulated:rate=100mbit:delay=5ms"));
        assertEquals("2", delay[0], delay[2]);
        assertTrue(delay[2].contains("netem"), delay[2]);
        String[] port = run(List.of("--link", "t3.xlarge", "--port", "4000"));
        assertEquals("2", port[0], port[2]);
        assertTrue(port[2].contains("invalid --port '4000'"), port[2]);
        assertEquals(before, EmulatedLink.recorded(), "a refused run recorded a link");
    }

    @Test
    void withoutRootAnEmulatedLinkIsRefusedWithStatusTwoAndTheReason() {
        Assumptions.assumeTrue(EmulatedLink.unavailable() != null, "this machine can make links (root)");
        String[] r = run(List.of("--link", "emulated:rate=100mbit"));
        assertEquals("2", r[0], r[2]);
        assertTrue(r[2].contains("an emulated link needs"), r[2]);
    }

    private static void needsLinks() {
        String missing = EmulatedLink.unavailable();
        Assumptions.assumeTrue(missing == null, "no emulated link here: it needs " + missing);
    }

    @Test
    @Timeout(120)
    void aMapOutputCrossesAnEmulatedLinkVerifiedAtWithinFifteenPercentOfItsRateAndNothingIsLeft() throws Exception {
        needsLinks();
        String loopback = rootLoopbackQdisc();
        Path json = dir.resolve("out.json");
        // The probe sends 2 s of the rate (50 MB at 200 Mbit/s): the 256 KiB bucket is half a percent of it.
        CliProcess run = CliProcess.start(SendCommand.class, List.of("--link", "emulated:rate=200mbit", "--workload",
                "lineitem", "--partitions", "4", "--input-rows", "8192", "--target-rows", "65536", "--mode",
                "coalesce", "--size", "small", "--scale", "0.02"), ProcessBuilder.Redirect.to(json.toFile()));
        String log = run.finish(100);
        assertEquals(0, run.process.exitValue(), log);
        String out = Files.readString(json);
        assertTrue(out.contains("\"verified\":true") && out.contains("\"linkMechanism\":\"netns+tbf\""), out);
        Matcher m = MEASURED.matcher(out);
        assertTrue(m.find(), out);
        double measured = Double.parseDouble(m.group(1));
        assertEquals(200e6, measured, 0.15 * 200e6, "the throughput measured through the link, in bit/s, against "
                + "its rate of 200 Mbit/s: " + out);
        assertNothingLeft(run.process.pid(), loopback, log);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"INT", "TERM", "KILL"})
    @Timeout(120)
    void aSignalledRunOrAKilledRunPlusCleanupLeavesNoNamespaceNoQdiscAndNoRecord(String signal) throws Exception {
        needsLinks();
        String loopback = rootLoopbackQdisc();
        // 20 Mbit/s: the probe alone (16 MiB) takes over 6 s, so the signal lands mid-run.
        CliProcess run = CliProcess.start(SendCommand.class, List.of("--link", "emulated:rate=20mbit", "--size",
                "small", "--scale", "0.1", "--partitions", "4"), ProcessBuilder.Redirect.DISCARD);
        long pid = run.process.pid();
        List<Long> inside = awaitProcessesInside(pid, 60);
        assertFalse(inside.isEmpty(), "no JVM started inside the link: " + run.err());
        run.signal(signal);
        String log = run.finish(60);
        assertEquals(signal.equals("INT") ? 130 : signal.equals("TERM") ? 143 : 137, run.process.exitValue(), log);
        if (signal.equals("KILL")) {
            assertTrue(namespacesOf(pid).size() == 1, "a killed run leaves its namespace: " + namespacesOf(pid));
            CliProcess cleanup = CliProcess.start(List.of("link", "cleanup"));
            String cleaned = cleanup.finish(60);
            assertEquals(0, cleanup.process.exitValue(), cleaned);
            assertTrue(cleaned.contains("of dead process " + pid), cleaned);
        }
        for (long p : inside) {
            ProcessHandle.of(p).ifPresent(h -> h.onExit().orTimeout(30, TimeUnit.SECONDS).join());
            assertFalse(ProcessHandle.of(p).map(ProcessHandle::isAlive).orElse(false), "process " + p + " inside "
                    + "the link still runs");
        }
        assertNothingLeft(pid, loopback, log);
    }

    private static List<Long> awaitProcessesInside(long pid, int seconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            List<String> names = namespacesOf(pid);
            if (names.size() == 1) {
                List<Long> pids = new ArrayList<>();
                for (String p : command("ip", "netns", "pids", names.get(0)).split("\\s+")) {
                    if (!p.isBlank()) {
                        pids.add(Long.parseLong(p));
                    }
                }
                if (!pids.isEmpty()) {
                    // The JVM inside has started; give it a moment to be in its transfer.
                    Thread.sleep(1500);
                    return pids;
                }
            }
            Thread.sleep(100);
        }
        return List.of();
    }

    private static void assertNothingLeft(long pid, String loopback, String log) throws Exception {
        assertEquals(List.of(), namespacesOf(pid), "namespaces of the run are left: " + log);
        assertFalse(EmulatedLink.recorded().stream().anyMatch(r -> r.contains(EmulatedLink.PREFIX + pid + "-")),
                "a record of the run is left: " + EmulatedLink.recorded());
        assertEquals(loopback, rootLoopbackQdisc(), "the machine's own loopback qdisc changed");
    }

    private static List<String> namespacesOf(long pid) throws Exception {
        List<String> out = new ArrayList<>();
        for (String line : command("ip", "netns", "list").split("\n")) {
            String name = line.split(" ")[0];
            if (name.startsWith(EmulatedLink.PREFIX + pid + "-")) {
                out.add(name);
            }
        }
        return out;
    }

    private static String rootLoopbackQdisc() throws Exception {
        return command("tc", "qdisc", "show", "dev", "lo");
    }

    private static String command(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), String.join(" ", command));
        assertEquals(0, p.exitValue(), String.join(" ", command) + ": " + out);
        return out;
    }
}
