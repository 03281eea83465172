package dev.sluice.jmh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * The scripts as a user runs them, after the benchmarks jar is built: bench.sh's smoke preset, then report.sh and
 * compare.sh on what it wrote, and their refusals of bad arguments.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ScriptsIT {
    private static final Path ROOT = Paths.get("..").toAbsolutePath().normalize();
    private static final Path WORK = Paths.get("target/scripts-it").toAbsolutePath();
    private static final Path BENCH = WORK.resolve("bench");
    private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G'};

    private static final class Run {
        final int status;
        final String out;
        final String err;

        Run(int status, String out, String err) {
            this.status = status;
            this.out = out;
            this.err = err;
        }
    }

    private static Run run(String... command) throws Exception {
        List<String> cmd = new ArrayList<>(Arrays.asList(command));
        cmd.set(0, ROOT.resolve(command[0]).toString());
        Files.createDirectories(WORK);
        Path out = Files.createTempFile(WORK, "out", ".txt");
        Path err = Files.createTempFile(WORK, "err", ".txt");
        Process p = new ProcessBuilder(cmd).directory(ROOT.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile()).start();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish in 5 minutes");
        }
        return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    @Test
    @Order(1)
    @Timeout(240)
    void benchSmokeWritesResultsEnvironmentAndReport() throws Exception {
        deleteRecursively(BENCH);
        Run r = run("scripts/bench.sh", "--preset", "smoke", "--out", BENCH.toString());
        assertEquals(0, r.status, r.err);
        assertTrue(r.err.contains("[5/5]"), "progress: " + r.err);
        assertTrue(r.err.contains("left"), "estimated time left: " + r.err);
        Path report = Paths.get(r.out.trim());
        assertEquals(BENCH.resolve("report/report.md"), report, "the last line is the report's path");

        JsonNode results = new ObjectMapper().readTree(BENCH.resolve("jmh-result.json").toFile());
        assertEquals(5, results.size(), "raw write plus four strategies at tiny");
        for (JsonNode b : results) {
            assertEquals("tiny", b.path("params").path("size").asText());
            for (String metric : List.of("io.amplification", "query.totalMillis", "wave.sumTaskMillis",
                    "wave.slowestTaskMillis", "gate.waitMillis", "dirty.peakBytes")) {
                assertTrue(b.path("secondaryMetrics").has(metric), metric + " missing from " + b);
            }
        }
        assertTrue(Files.readString(BENCH.resolve("plan.txt")).startsWith("# smoke:"), "the plan as run");
        // per-batch, the first strategy, verifies row by row; the others' equal bytes by the digests it recorded.
        try (var entries = Files.list(BENCH.resolve("verified"))) {
            assertEquals(1, entries.count(), "one input, one entry of verified digests");
        }
        StringBuilder logs = new StringBuilder();
        try (var files = Files.list(BENCH.resolve("logs"))) {
            for (Path log : files.sorted().collect(java.util.stream.Collectors.toList())) {
                logs.append(Files.readString(log));
            }
        }
        assertTrue(logs.indexOf("per-batch, 1 outputs verified row by row") >= 0, "per-batch verified row by row");
        for (String strategy : List.of("buffered", "async", "async:skipMerge=true")) {
            assertTrue(logs.indexOf(strategy + ", 1 outputs hold the bytes of outputs verified row by row") >= 0,
                    strategy + " verified by digest");
        }
        JsonNode env = new ObjectMapper().readTree(BENCH.resolve("environment.json").toFile());
        for (String key : List.of("jdk", "cores", "memory", "kernel", "fileSystem", "freeSpace", "vm.dirty_ratio",
                "vm.dirty_background_ratio", "gitCommit")) {
            assertTrue(env.has(key), key + " missing from environment.json");
        }
        assertReport(BENCH.resolve("report"));
    }

    @Test
    @Order(2)
    @Timeout(120)
    void reportShMakesTheReportFromAResult() throws Exception {
        Path out = WORK.resolve("report");
        deleteRecursively(out);
        Run r = run("scripts/report.sh", BENCH.resolve("jmh-result.json").toString(), "--out", out.toString());
        assertEquals(0, r.status, r.err);
        assertEquals(out.resolve("report.md").toString(), r.out.trim());
        assertReport(out);
    }

    @Test
    @Order(3)
    @Timeout(120)
    void compareShFindsNoSlowdownAgainstItselfAndFailsOnARealOne() throws Exception {
        Path result = BENCH.resolve("jmh-result.json");
        Run same = run("scripts/compare.sh", result.toString(), result.toString());
        assertEquals(0, same.status, same.err);
        assertTrue(same.out.contains("no benchmark is slower beyond the threshold"), same.out);
        assertTrue(same.out.contains("ShuffleWriteBenchmark.wave"), same.out);

        Path base = withScores(result, WORK.resolve("base.json"), 1.0);
        Path slower = withScores(result, WORK.resolve("slower.json"), 2.0);
        Run worse = run("scripts/compare.sh", base.toString(), slower.toString(), "--threshold", "5%");
        assertEquals(1, worse.status, worse.out + worse.err);
        assertTrue(worse.out.contains("SLOWER"), worse.out);
        Run better = run("scripts/compare.sh", slower.toString(), base.toString());
        assertEquals(0, better.status, better.out + better.err);
        assertTrue(better.out.contains("faster"), better.out);
    }

    @Test
    @Order(4)
    @Timeout(180)
    void profileShProfilesTheMeasuredWavesIntoFlameGraphsAndCollapsedStacks() throws Exception {
        Path out = WORK.resolve("profile");
        deleteRecursively(out);
        Run r = run("scripts/profile.sh", "--strategy", "buffered", "--size", "tiny", "--scale", "8", "--iterations",
                "3", "--out", out.toString());
        assertEquals(0, r.status, r.err);
        List<String> files = List.of("buffered-tiny-1tasks-flame.html", "buffered-tiny-1tasks-flame-reverse.html",
                "buffered-tiny-1tasks-collapsed.txt");
        assertEquals(files.stream().map(f -> out.resolve(f).toString()).collect(java.util.stream.Collectors.toList()),
                Arrays.asList(r.out.trim().split("\n")));
        for (String file : files) {
            assertTrue(Files.size(out.resolve(file)) > 0, file + " is empty");
        }
        assertTrue(r.err.contains("%"), "the frames with the most samples: " + r.err);
    }

    @Test
    @Order(5)
    void scriptsRefuseBadArgumentsWithExitStatus2() throws Exception {
        for (String[] bad : List.of(
                new String[] {"scripts/bench.sh", "--preset", "huge"},
                new String[] {"scripts/bench.sh", "--sizes", "tiny,gigantic"},
                new String[] {"scripts/bench.sh", "--scale", "-1"},
                new String[] {"scripts/bench.sh", "--codec", "zstd"},
                new String[] {"scripts/bench.sh", "--sync", "maybe"},
                new String[] {"scripts/bench.sh", "--strategies", "nope", "--out", WORK.resolve("never").toString()},
                new String[] {"scripts/bench.sh", "--strategies", "per-batch,async:skipMerge=maybe", "--out",
                        WORK.resolve("never").toString()},
                new String[] {"scripts/bench.sh", "--jdk", "/nonexistent"},
                new String[] {"scripts/report.sh"},
                new String[] {"scripts/report.sh", "/nonexistent.json"},
                new String[] {"scripts/compare.sh", "only-one.json"},
                new String[] {"scripts/compare.sh", BENCH.resolve("jmh-result.json").toString(),
                        BENCH.resolve("jmh-result.json").toString(), "--threshold", "lots"},
                new String[] {"scripts/profile.sh", "--size", "tiny"},
                new String[] {"scripts/profile.sh", "--strategy", "per-batch", "--size", "tiny", "--event", "gpu"},
                new String[] {"scripts/profile.sh", "--strategy", "per-batch", "--size", "tiny", "--tasks", "0"},
                new String[] {"scripts/profile.sh", "--strategy", "per-batch", "--size", "tiny", "--memory-limit", "lots"},
                new String[] {"scripts/profile.sh", "--strategy", "buffered:merge=zip", "--size", "tiny"})) {
            Run r = run(bad);
            assertEquals(2, r.status, String.join(" ", bad) + ": " + r.err);
            assertTrue(r.err.contains(bad[0].substring(8)), String.join(" ", bad) + ": " + r.err);
        }
        assertTrue(!Files.exists(WORK.resolve("never")), "bench.sh created its output for a bad strategy");
        for (String script : List.of("bench.sh", "report.sh", "compare.sh", "profile.sh")) {
            Run help = run("scripts/" + script, "--help");
            assertEquals(0, help.status, script);
            assertTrue(help.out.startsWith("Usage: scripts/" + script), script + ": " + help.out);
        }
    }

    private static void assertReport(Path dir) throws IOException {
        String report = Files.readString(dir.resolve("report.md"), StandardCharsets.UTF_8);
        for (String section : List.of("Executive summary", "Environment", "Configuration", "Query total time",
                "Mapper stage time", "Sum of all mapper task durations", "vs per-batch", "Precision",
                "I/O per map task", "raw-write reference", "Crossover", "What the counters say", "query.png",
                "mapper.png", "tasks.png", "amplification.png", "syscalls.png", "per-batch", "buffered", "async",
                "async:skipMerge=true")) {
            assertTrue(report.contains(section), section + " missing from " + dir.resolve("report.md"));
        }
        for (String png : List.of("query.png", "mapper.png", "tasks.png", "amplification.png", "syscalls.png",
                "disk.png")) {
            byte[] head = Arrays.copyOf(Files.readAllBytes(dir.resolve(png)), 4);
            assertArrayEquals(PNG, head, png + " is not a PNG");
        }
    }

    /**
     * The result with every score multiplied by {@code factor} and three measured waves within 0.1% of it, so that
     * the errors computed from them are small and a comparison is decisive.
     */
    private static Path withScores(Path result, Path out, double factor) throws IOException {
        ObjectMapper json = new ObjectMapper();
        ArrayNode all = (ArrayNode) json.readTree(result.toFile());
        for (JsonNode b : all) {
            ObjectNode primary = (ObjectNode) b.path("primaryMetric");
            double score = primary.path("score").asDouble() * factor;
            primary.put("score", score);
            ArrayNode waves = primary.putArray("rawData").addArray();
            waves.add(score * 0.999).add(score).add(score * 1.001);
        }
        json.writeValue(out.toFile(), all);
        return out;
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
