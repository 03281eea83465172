package dev.sluice.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.bench.Plan.Configuration;
import dev.sluice.jmh.state.GateState;
import dev.sluice.spi.InvalidParameterException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What scripts/bench.sh's runner refuses before any fork runs, and its usage text. */
class BenchRunnerTest {
    private static String refusal(String... args) {
        return assertThrows(RunnerOptions.UsageException.class, () -> new BenchRunner().run(List.of(args)))
                .getMessage();
    }

    @Test
    void anUnknownArgumentOrAMissingValueIsRefusedNamingIt() {
        assertTrue(refusal("--preset", "smoke", "--bogus", "x").startsWith("unknown argument '--bogus': allowed are "
                + "--preset, --strategies,"), "the allowed options");
        assertEquals("--preset needs a value", refusal("--preset"));
        assertEquals("--out needs a value", refusal("--out", ""));
        InvalidParameterException e = assertThrows(InvalidParameterException.class,
                () -> new BenchRunner().run(List.of("--preset", "huge")));
        assertEquals("--preset", e.parameter());
    }

    @Test
    void dropCachesTakesTrueOrFalseAndTrueNeedsTheKernelsFileWritable(@TempDir Path dir) {
        Path out = dir.resolve("out");
        assertEquals("invalid --drop-caches 'yes': allowed are true and false",
                refusal("--preset", "smoke", "--drop-caches", "yes", "--out", out.toString()));
        if (!Files.isWritable(GateState.DROP_CACHES)) {
            assertTrue(refusal("--preset", "smoke", "--drop-caches", "true", "--out", out.toString())
                    .endsWith("dropping the page cache needs root"));
        }
        assertTrue(!Files.exists(out), "refused before any file");
    }

    @Test
    void prefaultTakesTrueOrFalseBeforeAnyFile(@TempDir Path dir) {
        Path out = dir.resolve("out");
        assertEquals("invalid --prefault 'on': allowed are true and false",
                refusal("--preset", "smoke", "--prefault", "on", "--out", out.toString()));
        assertEquals("invalid --references 'sometimes': allowed are cached and measured",
                refusal("--preset", "smoke", "--references", "sometimes", "--out", out.toString()));
        assertTrue(!Files.exists(out), "refused before any file");
    }

    @Test
    void anOutThatHoldsARunAnInterruptedRunOrIsAFileIsRefusedAndLeftAsItIs(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("a-file.txt"), "a user's file");
        assertEquals("invalid --out '" + file + "': it exists and is not a directory",
                refusal("--preset", "smoke", "--out", file.toString()));
        Path done = Files.createDirectories(dir.resolve("done"));
        Files.writeString(done.resolve("jmh-result.json"), "[]");
        assertTrue(refusal("--preset", "smoke", "--out", done.toString()).endsWith("it already holds a run "
                + "(jmh-result.json)"));
        Path interrupted = Files.createDirectories(dir.resolve("interrupted/runs"));
        Files.writeString(interrupted.resolve("02-tiny-raw.json"), "[]");
        assertTrue(refusal("--preset", "smoke", "--out", interrupted.getParent().toString())
                .contains("interrupted run's results"));
        assertEquals("[]", Files.readString(interrupted.resolve("02-tiny-raw.json")));
        assertEquals("a user's file", Files.readString(file));
    }

    @Test
    void theUsageNamesEveryOptionTheRunnerTakes() throws Exception {
        String usage = RunnerOptions.usage();
        assertTrue(usage.startsWith("Usage: scripts/bench.sh "), usage);
        for (String option : RunnerOptions.OPTIONS) {
            assertTrue(usage.contains("\n  " + option + " "), option + " is not described in the usage");
        }
        assertTrue(usage.contains("Exit status: 0 done, 1 a benchmark failed, 2 bad arguments."), usage);
    }

    @Test
    void underABudgetTheTimeOfWhatRunsAfterTheLastChunkIsKeptFromTheSameKindsBefore() throws Exception {
        Plan plan = BenchPlan.plan(List.of("--preset", "seed", "--device", "native"));
        List<Configuration> configs = plan.configurations;
        int last = -1;
        for (int i = 0; i < configs.size(); i++) {
            last = configs.get(i).paired() ? i : last;
        }
        List<Configuration> tail = configs.subList(last + 1, configs.size());
        assertEquals(List.of(Configuration.Kind.RAW_WRITE, Configuration.Kind.FLOOR, Configuration.Kind.PACED_WRITE),
                tail.stream().map(c -> c.kind).collect(Collectors.toList()),
                "the largest size's raw write, floors and paced write");
        Configuration raw = tail.get(0);
        Configuration floor = tail.get(1);
        assertEquals(0, new KindTimes().estimate(tail), "nothing of those kinds has run: nothing to go by");
        // One raw write so far: its seconds as they are; two floors: the line through them, extended.
        KindTimes ran = new KindTimes();
        ran.add(Configuration.Kind.RAW_WRITE, 10, raw.weight / 2.0);
        ran.add(Configuration.Kind.FLOOR, 20, floor.weight / 4.0);
        ran.add(Configuration.Kind.FLOOR, 30, floor.weight / 2.0);
        assertEquals(10 + 50, ran.estimate(tail));
        // A line that falls (a noisy pair of runs) keeps the last one's seconds.
        KindTimes noisy = new KindTimes();
        noisy.add(Configuration.Kind.RAW_WRITE, 10, raw.weight / 2.0);
        noisy.add(Configuration.Kind.FLOOR, 30, floor.weight / 4.0);
        noisy.add(Configuration.Kind.FLOOR, 20, floor.weight / 2.0);
        assertEquals(10 + 20, noisy.estimate(tail));
    }

    @Test
    void jmhsForksGetTheClassPathLessTheRunnersOwnJar() {
        String sep = java.io.File.pathSeparator;
        assertEquals(String.join(sep, "/r/jmh/target/benchmarks.jar", "/w/writer.jar"), JmhInvoker.forkClassPath(
                String.join(sep, "/r/bench/target/sluice-bench.jar", "/r/jmh/target/benchmarks.jar", "/w/writer.jar"),
                "/r/bench/target/../target/sluice-bench.jar"));
        assertEquals(String.join(sep, "/r/bench/target/classes", "/r/jmh/target/classes"), JmhInvoker.forkClassPath(
                String.join(sep, "/r/bench/target/classes", "/r/jmh/target/classes"), "/r/bench/target/classes/"),
                "a runner from its classes (tests) keeps them");
    }

    @Test
    void theScriptsPrintAsManyLinesOfAFailedLogAsTheRunner() throws Exception {
        String lib = Files.readString(Path.of("..", "scripts", "lib.sh"));
        assertTrue(lib.contains("\ntail_lines=" + JmhInvoker.TAIL + "\n"), "scripts/lib.sh's tail_lines is not "
                + JmhInvoker.TAIL);
    }

    @Test
    void provenanceIsTheCommitOfTheRepositoryOrUnknownOutsideOne(@TempDir Path dir) {
        assertEquals(Provenance.UNKNOWN, Provenance.commit(dir));
        String commit = Provenance.commit(Path.of(".."));
        assertTrue(commit.equals(Provenance.UNKNOWN) || commit.matches("[0-9a-f]{40}( \\(with uncommitted changes\\))?"),
                commit);
    }
}
