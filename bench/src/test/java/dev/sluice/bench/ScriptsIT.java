package dev.sluice.bench;

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
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * The scripts as a user runs them, after the benchmarks jar is built: bench.sh's smoke preset, then report.sh and
 * compare.sh on what it wrote, profile.sh, every script's --help, third-party strategies through SLUICE_CLASSPATH,
 * and their refusals of bad arguments.
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
        return run(Map.of(), command);
    }

    /** Runs a script of the repository (a path relative to it) or a program, with {@code env} added. */
    private static Run run(Map<String, String> env, String... command) throws Exception {
        List<String> cmd = new ArrayList<>(Arrays.asList(command));
        if (!Paths.get(command[0]).isAbsolute()) {
            cmd.set(0, ROOT.resolve(command[0]).toString());
        }
        Files.createDirectories(WORK);
        Path out = Files.createTempFile(WORK, "out", ".txt");
        Path err = Files.createTempFile(WORK, "err", ".txt");
        ProcessBuilder builder = new ProcessBuilder(cmd).directory(ROOT.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile());
        builder.environment().remove("SLUICE_CLASSPATH");
        builder.environment().putAll(env);
        Process p = builder.start();
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
        assertTrue(r.err.contains("[4/4]"), "progress: " + r.err);
        assertTrue(r.err.contains("[1/4] tiny stopped: rounds: the 2 rounds asked for, without a budget"), r.err);
        assertTrue(r.err.contains("left"), "estimated time left: " + r.err);
        Path report = Paths.get(r.out.trim());
        assertEquals(BENCH.resolve("report/report.md"), report, "the last line is the report's path");

        JsonNode results = new ObjectMapper().readTree(BENCH.resolve("jmh-result.json").toFile());
        assertEquals(9, results.size(), "five strategies, paired, the raw write, the floors' two and the paced write "
                + "at tiny");
        int floors = 0;
        int paced = 0;
        for (JsonNode b : results) {
            assertEquals("tiny", b.path("params").path("size").asText());
            if (b.path("benchmark").asText().contains(".FloorBenchmark.")) {
                floors++;
                continue;
            }
            paced += b.path("params").path("pace").asText("none").equals("none") ? 0 : 1;
            for (String metric : List.of("io.amplification", "query.totalMillis", "wave.sumTaskMillis",
                    "wave.slowestTaskMillis", "gate.waitMillis", "dirty.peakBytes", "jit.compilationMillis")) {
                assertTrue(b.path("secondaryMetrics").has(metric), metric + " missing from " + b);
            }
        }
        assertEquals(2, floors, "serialize and compress");
        assertEquals(1, paced, "the paced write");
        assertTrue(r.err.contains("pace = "), "the paced write's pace, and where it comes from: " + r.err);
        assertTrue(Files.readString(BENCH.resolve("plan.txt")).startsWith("# smoke:"), "the plan as run");
        assertTrue(Files.readString(BENCH.resolve("plan.txt")).contains("\ntiny-floor|"), "the floors' configuration");
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
        for (String strategy : List.of("buffered", "async", "async:skipMerge=true", "ideal")) {
            assertTrue(logs.indexOf(strategy + ", 1 outputs hold the bytes of per-batch's outputs verified row by "
                    + "row") >= 0, strategy + " verified by digest: " + logs);
        }
        JsonNode comparisons = new ObjectMapper().readTree(BENCH.resolve("comparisons.json").toFile());
        assertEquals(2 * (4 + 4), comparisons.size(), "mapper stage and query total: four strategies against "
                + "per-batch, four against ideal");
        for (JsonNode c : comparisons) {
            for (String field : List.of("size", "strategy", "baseline", "ratio", "ciLow", "ciHigh", "pairs",
                    "device", "floorMs", "floorSumMs", "floorPacedWriteMs", "overFloor", "overFloorSum")) {
                assertTrue(c.has(field), field + " missing from " + c);
            }
            assertEquals(c.path("figure").asText().equals("mapper stage"), c.path("overFloor").isNumber(),
                    "a mapper-stage row's time over the floor: " + c);
            assertEquals(c.path("figure").asText().equals("mapper stage"), c.path("floorPacedWriteMs").isNumber(),
                    "a mapper-stage row's paced write: " + c);
            assertEquals(2, c.path("pairs").asInt());
        }
        JsonNode stops = new ObjectMapper().readTree(BENCH.resolve("stops.json").toFile());
        assertEquals("rounds", stops.get(0).path("reason").asText());
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
        assertTrue(same.out.contains("PairedWaveBenchmark.wave"), same.out);

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
        // A directory that already holds a user's files, some named as profiles are, and a stale profile of this
        // configuration: only the run's own files may change.
        Files.createDirectories(out);
        Map<String, String> users = Map.of("myapp-flame.html", "mine", "myapp-flame-reverse.html", "mine",
                "myapp-collapsed.txt", "mine 1", "jmh.log", "my log", "per-batch-tiny-1tasks-flame.html", "other");
        for (Map.Entry<String, String> f : users.entrySet()) {
            Files.writeString(out.resolve(f.getKey()), f.getValue());
        }
        Files.writeString(out.resolve("buffered-tiny-1tasks-flame.html"), "stale");
        // Spark's zstd, so that a codec name other than the default goes through the script into the fork.
        Run r = run("scripts/profile.sh", "--strategy", "buffered", "--size", "tiny", "--scale", "8", "--iterations",
                "3", "--codec", "zstd", "--out", out.toString());
        assertEquals(0, r.status, r.err);
        List<String> files = List.of("buffered-tiny-1tasks-flame.html", "buffered-tiny-1tasks-flame-reverse.html",
                "buffered-tiny-1tasks-collapsed.txt");
        assertEquals(files.stream().map(f -> out.resolve(f).toString()).collect(Collectors.toList()),
                Arrays.asList(r.out.trim().split("\n")));
        for (String file : files) {
            assertTrue(Files.size(out.resolve(file)) > 0, file + " is empty");
        }
        assertTrue(!Files.readString(out.resolve(files.get(0))).equals("stale"), "the run's own file is replaced");
        assertTrue(Files.size(out.resolve("buffered-tiny-1tasks-jmh.log")) > 0, "JMH's output, named for the run");
        for (Map.Entry<String, String> f : users.entrySet()) {
            assertEquals(f.getValue(), Files.readString(out.resolve(f.getKey())), f.getKey() + " was touched");
        }
        assertTrue(r.err.contains("%"), "the frames with the most samples: " + r.err);
        java.util.regex.Matcher samples = java.util.regex.Pattern.compile("(\\d+) samples;").matcher(r.err);
        assertTrue(samples.find(), r.err);
        assertEquals(Long.parseLong(samples.group(1)) < 1000, r.err.contains("warning: this profile holds only "
                + samples.group(1) + " sample"), "a profile of few samples is flagged: " + r.err);
    }

    @Test
    @Order(5)
    void scriptsRefuseBadArgumentsWithExitStatus2() throws Exception {
        Files.createDirectories(WORK);
        Files.writeString(WORK.resolve("a-file.txt"), "a user's file");
        for (String[] bad : List.of(
                new String[] {"scripts/bench.sh", "--preset", "huge"},
                new String[] {"scripts/bench.sh", "--sizes", "tiny,gigantic"},
                new String[] {"scripts/bench.sh", "--scale", "-1"},
                new String[] {"scripts/bench.sh", "--codec", "snappy"},
                new String[] {"scripts/bench.sh", "--sync", "maybe"},
                new String[] {"scripts/bench.sh", "--strategies", "nope", "--out", WORK.resolve("never").toString()},
                new String[] {"scripts/bench.sh", "--strategies", "per-batch,async:skipMerge=maybe", "--out",
                        WORK.resolve("never").toString()},
                new String[] {"scripts/bench.sh", "--jdk", "/nonexistent"},
                new String[] {"scripts/bench.sh", "--paired", "sometimes"},
                new String[] {"scripts/bench.sh", "--preset", "seed", "--budget", "soon"},
                new String[] {"scripts/bench.sh", "--preset", "tuning", "--budget", "10m"},
                new String[] {"scripts/report.sh"},
                new String[] {"scripts/report.sh", "/nonexistent.json"},
                new String[] {"scripts/compare.sh", "only-one.json"},
                new String[] {"scripts/compare.sh", BENCH.resolve("jmh-result.json").toString(),
                        BENCH.resolve("jmh-result.json").toString(), "--threshold", "lots"},
                new String[] {"scripts/profile.sh", "--size", "tiny"},
                new String[] {"scripts/profile.sh", "--strategy", "per-batch", "--size", "gigantic"},
                new String[] {"scripts/profile.sh", "--strategy", "per-batch", "--size", "tiny", "--event", "gpu"},
                new String[] {"scripts/profile.sh", "--strategy", "per-batch", "--size", "tiny", "--tasks", "0"},
                new String[] {"scripts/profile.sh", "--strategy", "per-batch", "--size", "tiny", "--memory-limit", "lots"},
                new String[] {"scripts/profile.sh", "--strategy", "buffered:merge=zip", "--size", "tiny"},
                new String[] {"scripts/profile.sh", "--strategy", "per-batch", "--size", "tiny", "--out",
                        WORK.resolve("a-file.txt").toString()},
                new String[] {"scripts/spark-cluster-check", "--spark-home", "/nonexistent"},
                new String[] {"scripts/spark-cluster-check", "--rows", "0"},
                new String[] {"scripts/spark-cluster-check", "--port", "70000"},
                new String[] {"scripts/spark-cluster-check", "--workers", "3"},
                new String[] {"scripts/python-env", "--fast"},
                new String[] {"scripts/python-env", "--python", "/nonexistent/python3"})) {
            Run r = run(bad);
            assertEquals(2, r.status, String.join(" ", bad) + ": " + r.err);
            assertTrue(r.err.contains(bad[0].substring(8)), String.join(" ", bad) + ": " + r.err);
        }
        assertTrue(!Files.exists(WORK.resolve("never")), "bench.sh created its output for a bad strategy");
        assertEquals("a user's file", Files.readString(WORK.resolve("a-file.txt")), "profile.sh --out FILE");
        Run profile = run("scripts/profile.sh", "--strategy", "per-batch", "--size", "tiny", "--out",
                WORK.resolve("a-file.txt").toString());
        assertTrue(profile.err.contains("invalid --out") && profile.err.contains("not a directory"), profile.err);
        // An interrupted run's results would be merged with the next run's: refused, and left as they are.
        Path interrupted = Files.createDirectories(WORK.resolve("interrupted/runs"));
        Files.writeString(interrupted.resolve("06-small-raw.json"), "[]");
        Run again = run("scripts/bench.sh", "--preset", "smoke", "--out", interrupted.getParent().toString());
        assertEquals(2, again.status, again.err);
        assertTrue(again.err.contains("interrupted run's results"), again.err);
        assertEquals("[]", Files.readString(interrupted.resolve("06-small-raw.json")));
        // A paired trial's waves come in rounds of its strategies: JMH's counts must be multiples of them.
        Run rounds = run(Paths.get(System.getProperty("java.home"), "bin", "java").toString(), "-jar", ROOT.resolve("jmh/target/benchmarks.jar").toString(), "PairedWaveBenchmark",
                "-p", "size=tiny", "-p", "strategies=per-batch+buffered", "-wi", "0", "-i", "3", "-f", "1", "-foe",
                "true");
        assertEquals(1, rounds.status, rounds.out + rounds.err);
        assertTrue((rounds.out + rounds.err).contains("invalid -i '3': allowed is a multiple of the 2 strategies"),
                rounds.out + rounds.err);
    }

    @Test
    @Order(6)
    void everyScriptPrintsItsUsageOnHelp() throws Exception {
        List<Path> scripts;
        try (Stream<Path> files = Files.list(ROOT.resolve("scripts"))) {
            scripts = files.filter(Files::isExecutable).filter(Files::isRegularFile).sorted()
                    .collect(Collectors.toList());
        }
        List<String> names = scripts.stream().map(p -> p.getFileName().toString()).collect(Collectors.toList());
        assertTrue(names.containsAll(List.of("bench.sh", "report.sh", "compare.sh", "profile.sh", "sluice", "net-send",
                "gpu-stage", "gpu-device", "check-pyarrow.py", "pyarrow-receive.py", "python-env")),
                String.valueOf(names));
        for (Path script : scripts) {
            Run help = run(script.toString(), "--help");
            assertEquals(0, help.status, script + " --help: " + help.err);
            assertTrue(help.out.lines().anyMatch(l -> l.startsWith("Usage: ")), script + " --help: " + help.out);
        }
    }

    @Test
    @Order(7)
    @Timeout(60)
    void compareShRefusesResultsThatShareNoConfiguration() throws Exception {
        Path result = BENCH.resolve("jmh-result.json");
        ObjectMapper json = new ObjectMapper();
        ArrayNode other = (ArrayNode) json.readTree(result.toFile());
        for (JsonNode b : other) {
            ((ObjectNode) b.path("params")).put("codec", "none");
        }
        Path none = WORK.resolve("codec-none.json");
        json.writeValue(none.toFile(), other);
        Run r = run("scripts/compare.sh", result.toString(), none.toString());
        assertEquals(2, r.status, r.out + r.err);
        assertTrue(r.err.startsWith("compare.sh: invalid NEW.json '" + none + "': it shares no configuration"), r.err);
        assertTrue(r.err.contains("PairedWaveBenchmark.wave (5)"), "what each file holds: " + r.err);
        assertTrue(r.err.contains("codec ("), "the parameter that differs: " + r.err);
        // The smoke run's skip-merge result carries memoryLimit=machine, not this machine's bytes.
        assertTrue(json.readTree(result.toFile()).findValuesAsText("memoryLimit").containsAll(List.of("none",
                "machine")), "memoryLimit as given");
    }

    /**
     * A third party's strategies in a jar of their own (the test classes of {@code dev.sluice.bench.teststrategy} with
     * a {@code META-INF/services} entry), and the same as a class directory.
     */
    private static Path strategyJar() throws IOException {
        Path classes = Paths.get("target/test-classes").toAbsolutePath();
        Path dir = WORK.resolve("strategy-classes");
        deleteRecursively(dir);
        Path services = dir.resolve("META-INF/services/dev.sluice.spi.ShuffleWriterFactory");
        Files.createDirectories(services.getParent());
        Files.writeString(services, "dev.sluice.bench.teststrategy.RenamedPerBatchFactory\n"
                + "dev.sluice.bench.teststrategy.FailingFactory\n");
        List<Path> copied;
        try (Stream<Path> files = Files.walk(classes.resolve("dev/sluice/bench/teststrategy"))) {
            copied = files.filter(Files::isRegularFile).collect(Collectors.toList());
        }
        for (Path f : copied) {
            Path to = dir.resolve(classes.relativize(f).toString());
            Files.createDirectories(to.getParent());
            Files.copy(f, to);
        }
        Path jar = WORK.resolve("test-strategies.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
             Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile).collect(Collectors.toList())) {
                out.putNextEntry(new JarEntry(dir.relativize(f).toString().replace('\\', '/')));
                out.write(Files.readAllBytes(f));
                out.closeEntry();
            }
        }
        return jar;
    }

    @Test
    @Order(8)
    @Timeout(300)
    void thirdPartyStrategiesComeFromSluiceClasspath() throws Exception {
        Path jar = strategyJar();
        Run without = run("scripts/sluice", "strategies", "it-per-batch");
        assertEquals(2, without.status, "not on the class path: " + without.err);
        Run listed = run(Map.of("SLUICE_CLASSPATH", jar.toString()), "scripts/sluice", "strategies", "it-per-batch");
        assertEquals(0, listed.status, listed.err);
        assertTrue(listed.out.contains("it-per-batch"), listed.out);
        Run fromDirectory = run(Map.of("SLUICE_CLASSPATH", ":" + WORK.resolve("strategy-classes") + ":"),
                "scripts/sluice", "strategies", "it-failing");
        assertEquals(0, fromDirectory.status, "a class directory, empty entries skipped: " + fromDirectory.err);

        Path missing = WORK.resolve("no-such-strategies.jar");
        for (String[] command : List.of(new String[] {"scripts/sluice", "strategies"},
                new String[] {"scripts/bench.sh", "--preset", "smoke", "--out", WORK.resolve("never").toString()},
                new String[] {"scripts/profile.sh", "--strategy", "per-batch", "--size", "tiny"})) {
            Run r = run(Map.of("SLUICE_CLASSPATH", jar + ":" + missing), command);
            assertEquals(2, r.status, String.join(" ", command) + ": " + r.err);
            assertTrue(r.err.contains("invalid SLUICE_CLASSPATH entry '" + missing + "'"), r.err);
        }
        assertTrue(!Files.exists(WORK.resolve("never")), "bench.sh created its output for a missing jar");

        Path out = WORK.resolve("bench-external");
        deleteRecursively(out);
        Run bench = run(Map.of("SLUICE_CLASSPATH", jar.toString()), "scripts/bench.sh", "--preset", "smoke",
                "--strategies", "it-per-batch", "--out", out.toString());
        assertEquals(0, bench.status, bench.err);
        JsonNode results = new ObjectMapper().readTree(out.resolve("jmh-result.json").toFile());
        assertEquals(List.of("it-per-batch"), results.findValuesAsText("strategy"), "the strategy ran in its fork");
    }

    @Test
    @Order(9)
    @Timeout(180)
    void aFailedTrialLeavesNoDirectory() throws Exception {
        Path jar = strategyJar();
        Path dir = WORK.resolve("sluice-dir");
        deleteRecursively(dir);
        Files.createDirectories(dir);
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        // The JMH lock only keeps timings apart; this run's outcome, not its time, is tested.
        Run r = run(java, "-Djmh.ignoreLock=true", "-cp", ROOT.resolve("jmh/target/benchmarks.jar") + ":" + jar,
                "dev.sluice.jmh.SluiceBenchmarks", "ShuffleWriteBenchmark", "-p", "strategy=it-failing", "-p",
                "size=tiny", "-wi", "0", "-i", "1", "-f", "1", "-foe", "true", "-jvmArgsAppend",
                "-Dsluice.dir=" + dir);
        assertEquals(1, r.status, "-foe true fails the run: " + r.out + r.err);
        assertTrue((r.out + r.err).contains("it-failing fails every commit"), r.out + r.err);
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(), left.collect(Collectors.toList()), "the failed trial's directory stays");
        }
    }

    private static void assertReport(Path dir) throws IOException {
        String report = Files.readString(dir.resolve("report.md"), StandardCharsets.UTF_8);
        for (String section : List.of("Executive summary", "Environment", "Configuration", "Query total time",
                "Mapper stage time", "Sum of all mapper task durations", "vs per-batch", "Precision",
                "I/O per map task", "raw-write reference", "Crossover", "What the counters say", "query.png",
                "mapper.png", "tasks.png", "amplification.png", "syscalls.png", "per-batch", "buffered", "async",
                "async:skipMerge=true", "Paired comparisons", "improvement.png", "Against the floor")) {
            assertTrue(report.contains(section), section + " missing from " + dir.resolve("report.md"));
        }
        for (String png : List.of("query.png", "mapper.png", "tasks.png", "amplification.png", "syscalls.png",
                "disk.png", "improvement.png")) {
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
