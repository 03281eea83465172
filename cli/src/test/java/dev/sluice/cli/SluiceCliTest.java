package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testkit.Threads;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SluiceCliTest {
    @TempDir
    Path tmp;

    private static CliResult run(List<String> args) {
        return CliResult.run(args);
    }

    private List<String> validArgs(Path out) {
        return new ArrayList<>(Arrays.asList("write", "--strategy", "per-batch", "--size", "tiny", "--scale", "0.1",
                "--partitions", "7", "--codec", "lz4-frame", "--threads", "2", "--out", out.toString()));
    }

    private static List<String> with(List<String> args, String option, String value) {
        List<String> changed = new ArrayList<>(args);
        int at = changed.indexOf(option);
        if (at >= 0) {
            changed.set(at + 1, value);
        } else {
            changed.add(option);
            changed.add(value);
        }
        return changed;
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
        "--partitions|0|an integer >= 1",
        "--partitions|-3|an integer >= 1",
        "--partitions|abc|an integer",
        "--threads|0|an integer >= 1",
        "--threads|1.5|an integer",
        "--memory-limit|-5m|a byte size",
        "--memory-limit|0|none, or a size >= 1 byte",
        "--strategy|async:skipMerge=maybe|for async's option skipMerge: true or false (not 'maybe')",
        "--strategy|async:fast=yes|an option of async: skipMerge, initialPartial",
        "--strategy|per-batch:fileBuffer=0|for per-batch's option fileBuffer: a byte size from 1B",
        "--strategy|buffered:merge=gather:merge=stream|each option of buffered once",
        "--strategy|buffered:merge|NAME or NAME:key=value",
        "--strategy|buffered:initialPartial=1g:maxPartial=64m|initialPartial <= maxPartial",
        "--scale|0|a finite number > 0",
        "--scale|-2|a finite number > 0",
        "--scale|big|a number",
        "--rows-per-batch|0|an integer >= 1",
        "--codec|snappy|none, lz4-frame, lz4-block, zstd",
        "--strategy|nope|per-batch",
        "--size|huge|tiny, small, medium",
        "--keys|normal|uniform or zipf",
        "--partitioning|range|hash or roundrobin",
        "--columns|int32,blob|int64, int32, float64, utf8",
        "--seed|x|an integer",
        "--producer|gpu:fast|gpu:RATE (the task's thread waits per batch",
        "--producer|tpu:58m|cpu:RATE",
        "--device|seed-ssd:produce=fast|produce=RATE, a byte size per second",
        "--device|emulated:write=50m:dirty=1g:produce=60m|produce=RATE after per-slot or a profile only",
    })
    void refusesInvalidValuesNamingOptionValueAndAllowedBeforeCreatingAnything(String option, String value, String allowed) {
        Path out = tmp.resolve("new-out");
        CliResult r = run(with(validArgs(out), option, value));
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains(option), r.err());
        assertTrue(r.err().contains("'" + value + "'"), r.err());
        assertTrue(r.err().contains("allowed is") && r.err().contains(allowed), r.err());
        assertEquals("", r.out());
        assertFalse(Files.exists(out), "created " + out);
        assertEquals(List.of(), entries(tmp));
    }

    @Test
    void deviceShowSaysABalanceIsSetRelativeToTheRunsTaskRate() {
        CliResult balance = run(List.of("device", "show", "seed-ssd", "--tasks", "2", "--scale", "0.25"));
        assertEquals(0, balance.status(), balance.err());
        assertTrue(balance.out().contains("a balance: 45.1 MB/s of disk per slot over 58.3 MB/s of map output per slot "
                + "= 0.774"), balance.out());
        CliResult given = run(List.of("device", "show", "seed-ssd", "--tasks", "2", "--task-rate", "100m"));
        assertEquals(0, given.status(), given.err());
        assertTrue(given.out().contains("this run's task rate 104.9 MB/s (given with --task-rate) x 0.774 = 81.1 MB/s "
                + "of disk per slot; write 81.1 MB/s x 2 = 162.3 MB/s"), given.out());
        CliResult bad = run(List.of("device", "show", "seed-ssd", "--task-rate", "fast"));
        assertEquals(2, bad.status(), bad.err());
        assertTrue(bad.err().contains("--task-rate") && bad.err().contains("'fast'"), bad.err());
    }

    @Test
    void refusesAnOutputDirectoryThatIsAFile() throws Exception {
        Path file = Files.writeString(tmp.resolve("a-file"), "x");
        CliResult r = run(with(validArgs(file), "--out", file.toString()));
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains("--out") && r.err().contains("not a directory"), r.err());
        CliResult under = run(with(validArgs(file), "--out", file.resolve("sub").toString()));
        assertEquals(2, under.status(), under.err());
        assertEquals(List.of("a-file"), entries(tmp));
        assertEquals("x", Files.readString(file));
    }

    @Test
    void refusesAnOutputDirectoryThatIsNotWritable() {
        // /proc/1 exists and is not writable, even for root.
        Path out = Path.of("/proc/1/sluice-out");
        CliResult r = run(with(validArgs(out), "--out", out.toString()));
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains("--out") && r.err().contains("not writable"), r.err());
    }

    @Test
    void refusesUnknownOptionsAndMissingOnes() {
        CliResult unknown = run(with(validArgs(tmp.resolve("o")), "--fast", "yes"));
        assertEquals(2, unknown.status());
        assertTrue(unknown.err().contains("--fast") && unknown.err().contains("allowed is"), unknown.err());
        List<String> noOut = validArgs(tmp.resolve("o")).subList(0, 13);
        CliResult missing = run(noOut);
        assertEquals(2, missing.status());
        assertTrue(missing.err().contains("--out") && missing.err().contains("required"), missing.err());
        assertEquals(2, run(List.of("frobnicate")).status());
        assertEquals(2, run(List.of()).status());
        assertEquals(List.of(), entries(tmp));
    }

    @Test
    void helpDescribesEveryOption() {
        CliResult top = run(List.of("--help"));
        assertEquals(0, top.status());
        assertTrue(top.out().contains("write") && top.out().contains("strategies"));
        CliResult write = run(List.of("write", "--help"));
        assertEquals(0, write.status());
        for (String option : List.of("--strategy", "--size", "--scale", "--partitions", "--codec", "--keys",
                "--partitioning", "--rows-per-batch", "--threads", "--memory-limit", "--seed", "--fsync", "--out",
                "--columns")) {
            assertTrue(write.out().contains(option), option + " missing from help");
        }
    }

    @Test
    void writesVerifiesAndPrintsOneJsonObject() throws Exception {
        Path out = tmp.resolve("out");
        CliResult r = run(validArgs(out));
        assertEquals(0, r.status(), r.err());
        String json = r.out().trim();
        assertEquals(1, json.lines().count(), "one line of JSON: " + r.out());
        assertTrue(json.startsWith("{") && json.endsWith("}"));
        for (String key : List.of("strategy", "partitions", "rows", "fingerprint", "committedBytes", "bytesWritten",
                "amplification", "writeCalls", "filesCreated", "filesLeft", "peakBufferedBytes", "spilledBytes",
                "millis", "verified", "procSelfIo", "syscw", "write_bytes", "cancelled_write_bytes")) {
            assertTrue(json.contains("\"" + key + "\":"), key + " missing from " + json);
        }
        assertTrue(json.contains("\"verified\":true"), json);
        assertTrue(json.contains("\"filesLeft\":0"), json);
        assertEquals(List.of(".sluice-files", "shuffle_0_0_0.checksum.ADLER32", "shuffle_0_0_0.data",
                "shuffle_0_0_0.index"), entries(out));
        assertTrue(json.contains("\"strategyOptions\":{\"fileBuffer\":\"32KiB\""), json);
        assertTrue(r.err().contains("verifying"), "progress on stderr: " + r.err());
        assertEquals(List.of(), Threads.sluiceThreads());
        // Same seed and options: same fingerprint, same bytes.
        CliResult again = run(validArgs(out));
        assertEquals(fingerprint(json), fingerprint(again.out()));
    }

    @ParameterizedTest
    @CsvSource({"buffered", "async"})
    void consolidatingStrategiesReportTheSameFields(String strategy) {
        Path out = tmp.resolve(strategy);
        CliResult r = run(with(validArgs(out), "--strategy", strategy));
        assertEquals(0, r.status(), r.err());
        for (String key : List.of("strategy", "committedBytes", "bytesWritten", "amplification", "writeCalls",
                "filesCreated", "filesLeft", "peakBufferedBytes", "spilledBytes", "millis", "procSelfIo")) {
            assertTrue(r.out().contains("\"" + key + "\":"), key + " missing from " + r.out());
        }
        assertTrue(r.out().contains("\"verified\":true"), r.out());
        assertTrue(r.out().contains("\"strategy\":\"" + strategy + "\""), r.out());
    }

    @Test
    void skipMergeWithoutAMemoryLimitWarnsOnStderrAndInTheResultAndMerges() {
        Path out = tmp.resolve("skip-merge");
        CliResult r = run(with(validArgs(out), "--strategy", "async:skipMerge=true"));
        assertEquals(0, r.status(), r.err());
        assertTrue(r.err().contains("sluice: warning: skipMerge=true is ignored without a memory limit"), r.err());
        assertTrue(r.out().contains("\"warnings\":[\"skipMerge=true is ignored without a memory limit"), r.out());
        assertTrue(r.out().contains("\"verified\":true"), r.out());
        assertEquals(List.of(".sluice-files", "shuffle_0_0_0.data", "shuffle_0_0_0.index"), entries(out));
        CliResult limited = run(with(with(validArgs(tmp.resolve("limited")), "--strategy", "async:skipMerge=true"),
                "--memory-limit", "1g"));
        assertEquals(0, limited.status(), limited.err());
        assertTrue(limited.out().contains("\"warnings\":[]"), limited.out());
    }

    @Test
    void anExactBoundOf4MiBOn20MBStaysUnderItAndVerifies() {
        Path out = tmp.resolve("async-4m");
        List<String> args = with(with(with(validArgs(out), "--strategy", "async:memoryBound=exact:initialPartial=1m"),
                "--scale", "5"), "--memory-limit", "4m");
        CliResult r = run(with(args, "--partitions", "200"));
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("\"inputBytes\":20"), r.out());
        long peak = number(r.out(), "peakBufferedBytes");
        assertTrue(peak > 0 && peak <= 4 * 1024 * 1024, "peakBufferedBytes " + peak);
        assertTrue(number(r.out(), "spilledBytes") > 0, r.out());
        assertTrue(r.out().contains("\"verified\":true"), r.out());
    }

    @Test
    void aSecondRunIntoADirectoryRemovesEveryFileTheFirstWroteAndNothingElse() throws Exception {
        Path out = tmp.resolve("twice");
        Files.createDirectories(out);
        Files.writeString(out.resolve("notes.txt"), "mine");
        Files.writeString(out.resolve("shuffle_1_0_0.data"), "another shuffle's");
        CliResult first = run(with(with(validArgs(out), "--tasks", "3"), "--strategy", "per-batch"));
        assertEquals(0, first.status(), first.err());
        assertEquals(List.of(".sluice-files", "notes.txt", "shuffle_0_0_0.checksum.ADLER32", "shuffle_0_0_0.data",
                "shuffle_0_0_0.index", "shuffle_0_1_0.checksum.ADLER32", "shuffle_0_1_0.data", "shuffle_0_1_0.index",
                "shuffle_0_2_0.checksum.ADLER32", "shuffle_0_2_0.data", "shuffle_0_2_0.index", "shuffle_1_0_0.data"),
                entries(out));
        CliResult second = run(with(validArgs(out), "--strategy", "buffered"));
        assertEquals(0, second.status(), second.err());
        assertTrue(second.err().contains("sluice: removed 9 files"), second.err());
        assertEquals(List.of(".sluice-files", "notes.txt", "shuffle_0_0_0.data", "shuffle_0_0_0.index",
                "shuffle_1_0_0.data"), entries(out));
        assertEquals("mine", Files.readString(out.resolve("notes.txt")));
        assertTrue(second.out().contains("\"verified\":true"), second.out());
    }

    @Test
    void aMapOutputFileNoRunListedIsNeverReplacedTheRunIsRefused() throws Exception {
        Path out = tmp.resolve("foreign");
        Files.createDirectories(out);
        Files.writeString(out.resolve("shuffle_0_5_0.checksum.ADLER32"), "not Sluice's");
        CliResult r = run(validArgs(out));
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains("--out") && r.err().contains("shuffle_0_5_0.checksum.ADLER32")
                && r.err().contains("did not write"), r.err());
        assertEquals(List.of("shuffle_0_5_0.checksum.ADLER32"), entries(out));
    }

    @Test
    void anOutputDirectoryThatCannotBeCreatedIsRefusedWithExitStatus2() {
        CliResult r = run(with(validArgs(tmp), "--out", "/proc/sluice-test"));
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains("/proc/sluice-test") && (r.err().contains("invalid --out") || r.err().contains("refused")),
                r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
    }

    @Test
    void aHugeScaleIsBlamedOnTheScaleNotOnBatchesNobodyGave() {
        CliResult r = run(with(with(validArgs(tmp.resolve("huge")), "--size", "small"), "--scale", "1e9"));
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains("invalid --scale '1e9'") && r.err().contains("at most"), r.err());
    }

    @Test
    void moreOpenFilesThanTheProcessMayHaveAreRefusedWithTheNumbersBeforeAnythingIsCreated() {
        long limit = dev.sluice.spi.StoragePlan.maxOpenFiles();
        org.junit.jupiter.api.Assumptions.assumeTrue(limit < 1_000_000, "this process may open " + limit + " files");
        Path out = tmp.resolve("many");
        CliResult r = run(with(validArgs(out), "--partitions", String.valueOf(limit + 1)));
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains("refused") && r.err().contains("open files") && r.err().contains(String.valueOf(limit)),
                r.err());
        assertFalse(Files.exists(out));
    }

    @Test
    void strategiesListsEveryOptionWithItsDefaultAndUpstreamSource() {
        CliResult r = run(List.of("strategies"));
        assertEquals(0, r.status(), r.err());
        for (String text : List.of("per-batch", "buffered", "async", "fileBuffer=32KiB", "checksum=true",
                "initialPartial=128MiB", "initialPartial=32MiB", "skipMerge=false", "merge=stream", "merger=blocking",
                "memoryBound=threshold", "partials-only", "upstream-head  (preset)",
                "is: async:merger=cooperative:compression=pool", "source: spark-rapids 796ef8b3ce", "recordBuffer=heap", "mergerThreads=threads", "upstream: ", "e465ec3851",
                "c4d50b3624", "#15208")) {
            assertTrue(r.out().contains(text), text + " missing from: " + r.out());
        }
        CliResult spec = run(List.of("strategies", "async:skipMerge=true", "per-batch"));
        assertEquals(0, spec.status(), spec.err());
        assertTrue(spec.out().startsWith("async:skipMerge=true:initialPartial=32MiB:"), spec.out());
        assertTrue(spec.out().contains("per-batch:fileBuffer=32KiB:maxBytesInFlight=128MiB:mergeCopy=transfer:checksum=true"),
                spec.out());
        CliResult bad = run(List.of("strategies", "async:skipMerge=perhaps"));
        assertEquals(2, bad.status());
        assertTrue(bad.err().contains("skipMerge") && bad.err().contains("true or false"), bad.err());
    }

    @Test
    void aConfigurationTooBigForThisMachineIsRefusedBeforeAnythingIsCreated() {
        Path out = tmp.resolve("too-big");
        CliResult r = run(with(with(validArgs(out), "--size", "xxlarge"), "--scale", "20"));
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains("refused") && r.err().contains("MemAvailable") && r.err().contains("GiB"), r.err());
        assertFalse(Files.exists(out));
        assertEquals("", r.out());
    }

    private static long number(String json, String key) {
        int at = json.indexOf("\"" + key + "\":") + key.length() + 3;
        int end = at;
        while (end < json.length() && (Character.isDigit(json.charAt(end)) || json.charAt(end) == '-')) {
            end++;
        }
        return Long.parseLong(json.substring(at, end));
    }

    private static String fingerprint(String json) {
        int at = json.indexOf("\"fingerprint\":\"") + 15;
        return json.substring(at, json.indexOf('"', at));
    }

    private static List<String> entries(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }
}
