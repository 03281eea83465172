package dev.sluice.cli;

import static dev.sluice.core.device.DeviceTraces.anythingMountedUnder;
import static dev.sluice.core.device.DeviceTraces.listing;
import static dev.sluice.core.device.DeviceTraces.loopNumbers;
import static dev.sluice.core.device.DeviceTraces.newLoopDevices;
import static dev.sluice.core.device.DeviceTraces.records;
import static dev.sluice.core.device.DeviceTraces.writebackStartersUnder;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.device.EmulatedDevice;
import dev.sluice.spi.Bytes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code scripts/sluice device check}: invalid arguments are refused with exit 2, naming the parameter, before anything
 * is made; {@code --help} prints the usage; and, where root and loop devices exist (skipped elsewhere), a tiny check
 * on a real device prints one JSON line with every field and leaves nothing behind, and a check stopped by SIGINT or
 * SIGTERM while it writes on the device (the command line in a process of its own) exits with 128 + the signal having
 * torn the device down: no loop device, mount, writeback starter, file or record of it remains.
 */
class DeviceCheckCommandTest {
    private static final String SPEC = "emulated:write=64m:dirty=16m";
    private static final List<String> FIELDS = List.of("spec", "mechanism", "writers", "bytes", "totalBytes",
            "paceBytesPerSecond", "rateBytesPerSecond", "dirtyBytes", "capBytes", "nativeMillis", "measuredMillis",
            "fluidMillis", "fluidHeldBackMillis", "departure", "withinTolerance", "writerMillis", "fluidWriterMillis",
            "throttle", "rounds", "device", "derivation");

    @TempDir
    Path dir;

    private CliResult check(List<String> args) {
        List<String> all = new ArrayList<>(List.of("device", "check"));
        all.addAll(args);
        return CliResult.run(all);
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                Arguments.of(List.of("emulated:write=fast"), "invalid --device 'emulated:write=fast'"),
                Arguments.of(List.of("native"), "invalid --device 'native': allowed is an emulated device to check"),
                Arguments.of(List.of(SPEC, "--writers", "0"), "invalid --writers '0'"),
                Arguments.of(List.of(SPEC, "--writers", "65"), "invalid --writers '65': allowed is 1 to 64"),
                Arguments.of(List.of(SPEC, "--pace", "10"), "invalid --pace '10': allowed is a byte size per second "
                        + "of at least 1m"),
                Arguments.of(List.of(SPEC, "--bytes", "0"), "invalid --bytes '0': allowed is a byte size of at least "
                        + "1m"),
                Arguments.of(List.of(SPEC, "--mechanism", "other"), "invalid --mechanism 'other': allowed is fluid or "
                        + "legacy"),
                Arguments.of(List.of("seed-ssd"), "invalid --task-rate 'none': allowed is a task rate for seed-ssd"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void anInvalidArgumentExitsTwoNamingItAndMakesNothing(List<String> args, String message) throws Exception {
        List<String> withDir = new ArrayList<>(args);
        withDir.addAll(List.of("--dir", dir.toString()));
        CliResult r = check(withDir);
        assertEquals(SluiceCli.USAGE, r.status(), r.err());
        assertTrue(r.err().contains(message), "expected '" + message + "' in: " + r.err());
        assertEquals("", r.out());
        assertEquals(List.of(), listing(dir), "nothing is made in --dir");
    }

    @Test
    void helpExitsZeroAndPrintsTheUsage() throws Exception {
        for (List<String> args : List.of(List.of("--help"), List.of(SPEC, "--help"), List.of(SPEC, "-h"))) {
            List<String> withDir = new ArrayList<>(args);
            withDir.addAll(List.of("--dir", dir.toString()));
            CliResult r = check(withDir);
            assertEquals(SluiceCli.OK, r.status(), args + ": " + r.err());
            assertTrue(r.out().startsWith("Usage: scripts/sluice device check SPEC"), args + ": " + r.out());
            for (String option : List.of("--bytes", "--writers", "--pace", "--mechanism", "--dir", "--rounds",
                    "--trace", "--strict", "Exit status: 0 measured")) {
                assertTrue(r.out().contains(option), option + " missing from the usage: " + r.out());
            }
            assertEquals(List.of(), listing(dir), "nothing is made in --dir");
        }
        CliResult none = check(List.of());
        assertEquals(SluiceCli.USAGE, none.status());
        assertTrue(none.err().startsWith("Usage: scripts/sluice device check SPEC"), none.err());
    }

    @Test
    @Timeout(180)
    void aTinyCheckOnARealDevicePrintsEveryFieldForEachRoundAndLeavesNothing() throws Exception {
        String missing = EmulatedDevice.unavailable();
        Assumptions.assumeTrue(missing == null, "no emulated device here: it needs " + missing);
        Set<Integer> loopsBefore = loopNumbers();

        CliResult r = check(List.of(SPEC, "--bytes", "32m", "--rounds", "2", "--dir", dir.toString()));
        assertEquals(SluiceCli.OK, r.status(), r.err());
        String json = r.out().trim();
        assertEquals(1, json.lines().count(), "one line of JSON: " + r.out());
        assertTrue(json.startsWith("{") && json.endsWith("}"), json);
        for (String field : FIELDS) {
            assertTrue(json.contains("\"" + field + "\":"), field + " missing from " + json);
        }
        assertEquals(SPEC, string(json, "spec"));
        assertEquals("fluid", string(json, "mechanism"));
        assertEquals(1, number(json, "writers"), json);
        assertEquals(32 * Bytes.MiB, number(json, "bytes"), json);
        assertEquals(32 * Bytes.MiB, number(json, "totalBytes"), json);
        assertEquals("null", raw(json, "paceBytesPerSecond"), "unpaced");
        assertEquals(64 * Bytes.MiB, number(json, "rateBytesPerSecond"), json);
        assertEquals(16 * Bytes.MiB, number(json, "dirtyBytes"), json);
        double cap = number(json, "capBytes");
        assertTrue(cap > 16 * Bytes.MiB && cap <= 2 * 16 * Bytes.MiB, "the cap above the cache, at most twice it: "
                + json);
        assertTrue(number(json, "nativeMillis") > 0, json);
        assertTrue(number(json, "measuredMillis") > 0, json);
        assertTrue(number(json, "fluidMillis") > 0, json);
        // The model: 32 MiB through 16 MiB of cache drained at 64 MiB/s cannot take less than (32 - 16) / 64 s.
        assertTrue(number(json, "fluidMillis") >= 250 - 1, json);
        assertTrue(number(json, "fluidHeldBackMillis") >= 0, json);
        assertTrue(raw(json, "withinTolerance").matches("true|false"), json);
        assertTrue(raw(json, "departure").matches("null|-?[0-9.E-]+"), json);
        assertEquals("null", raw(json, "throttle"), "no --trace");
        assertTrue(string(json, "device").contains("fluid: "), json);
        assertTrue(json.matches(".*\"writerMillis\":\\[[0-9.]+\\].*"), "one writer's time: " + json);

        String rounds = json.substring(json.indexOf("\"rounds\":["), json.indexOf("],\"device\":"));
        assertEquals(2, count(rounds, "\"round\":"), rounds);
        assertTrue(rounds.contains("{\"round\":1,\"measuredMillis\":") && rounds.contains("{\"round\":2,"
                + "\"measuredMillis\":"), rounds);
        // The top-level figures are the last round's.
        Matcher second = Pattern.compile("\\{\"round\":2,\"measuredMillis\":([0-9.]+)").matcher(rounds);
        assertTrue(second.find(), rounds);
        assertEquals(Double.parseDouble(second.group(1)), number(json, "measuredMillis"), 0.0, json);
        assertTrue(r.err().contains("round 1 of 2") && r.err().contains("round 2 of 2"), r.err());

        assertEquals(List.of(), listing(dir), "what --dir holds after the check");
        assertEquals(Set.of(), newLoopDevices(loopsBefore, dir), "loop devices left");
        assertFalse(anythingMountedUnder(dir), "a mount left under " + dir);
        assertEquals(Set.of(), writebackStartersUnder(dir), "writeback starters left");
        assertEquals(List.of(), records(), "device records left");
    }

    @ParameterizedTest(name = "SIG{0}")
    @ValueSource(strings = {"INT", "TERM"})
    @Timeout(180)
    void aSignalWhileTheCheckWritesOnTheDeviceTearsItDownAndLeavesNothing(String signal) throws Exception {
        String missing = EmulatedDevice.unavailable();
        Assumptions.assumeTrue(missing == null, "no emulated device here: it needs " + missing);
        Set<Integer> loopsBefore = loopNumbers();
        // 256 MiB at 16 MiB/s: some 16 s on the device, long after the signal.
        CliProcess run = CliProcess.start(List.of("device", "check", "emulated:write=16m:dirty=16m", "--bytes", "256m",
                "--dir", dir.toString()));
        String log;
        Set<Long> started;
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!run.err().contains(" on the device...") && run.process.isAlive()
                    && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertTrue(run.err().contains(" on the device..."), "the writes on the device never started: "
                    + run.err());
            Thread.sleep(500); // well into the writes
            started = writebackStartersUnder(dir);
            assertEquals(1, started.size(), "the device's writeback starter runs: " + started);
            assertFalse(newLoopDevices(loopsBefore, dir).isEmpty(), "the device's loop device exists");
            run.signal(signal);
        } finally {
            log = run.finish(150);
        }
        assertEquals(signal.equals("INT") ? 130 : 143, run.process.exitValue(), log);
        assertTrue(log.contains("sluice: interrupted"), log);
        assertFalse(log.contains("sluice: measured"), "the writes had ended before the signal: " + log);
        assertFalse(log.contains("not fully undone") || log.contains("not undone"), log);

        assertEquals(List.of(), listing(dir), "what --dir holds after SIG" + signal + ": " + log);
        assertEquals(Set.of(), newLoopDevices(loopsBefore, dir), "loop devices left: " + log);
        assertFalse(anythingMountedUnder(dir), "a mount left under " + dir + ": " + log);
        assertEquals(Set.of(), writebackStartersUnder(dir), "the writeback starter " + started + " still runs");
        assertEquals(List.of(), records(), "device records left: " + log);
    }

    /** The value of the first {@code key} (the top level's: it comes before the rounds), as written. */
    static String raw(String json, String key) {
        Matcher m = Pattern.compile("\"" + Pattern.quote(key) + "\":(\"(?:[^\"\\\\]|\\\\.)*\"|[^,}\\]]*)")
                .matcher(json);
        if (!m.find()) {
            throw new AssertionError(key + " missing from " + json);
        }
        return m.group(1);
    }

    static double number(String json, String key) {
        return Double.parseDouble(raw(json, key));
    }

    static String string(String json, String key) {
        String value = raw(json, key);
        assertTrue(value.startsWith("\"") && value.endsWith("\""), key + " is not a string: " + value);
        return value.substring(1, value.length() - 1);
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            n++;
        }
        return n;
    }
}
