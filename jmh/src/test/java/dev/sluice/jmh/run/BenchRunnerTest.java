package dev.sluice.jmh.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.jmh.state.GateState;
import dev.sluice.spi.InvalidParameterException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What scripts/bench.sh's runner refuses before any fork runs, and its usage text. */
class BenchRunnerTest {
    private static String refusal(String... args) {
        return assertThrows(BenchRunner.UsageException.class, () -> new BenchRunner().run(List.of(args)))
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
        String usage = BenchRunner.usage();
        assertTrue(usage.startsWith("Usage: scripts/bench.sh "), usage);
        for (String option : BenchRunner.OPTIONS) {
            assertTrue(usage.contains("\n  " + option + " "), option + " is not described in the usage");
        }
        assertTrue(usage.contains("Exit status: 0 done, 1 a benchmark failed, 2 bad arguments."), usage);
    }
}
