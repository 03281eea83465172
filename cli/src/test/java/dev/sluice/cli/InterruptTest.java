package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ctrl-C (SIGINT) or SIGTERM in the middle of a wave, through the command line in a process of its own, for every
 * built-in strategy: the run stops, says so, exits with 128 + the signal, and the directory holds exactly what it
 * held before (here a user's files, one of them named like another shuffle's output).
 */
@EnabledOnOs(OS.LINUX)
class InterruptTest {
    static Stream<Arguments> runs() {
        List<Arguments> all = new ArrayList<>();
        for (String strategy : List.of("per-batch", "buffered", "async", "async:skipMerge=true", "consolidated-best",
                "upstream-head", "ideal")) {
            for (String signal : List.of("INT", "TERM")) {
                all.add(Arguments.of(strategy, signal));
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0}, SIG{1}")
    @MethodSource("runs")
    @Timeout(180)
    void aSignalMidWaveStopsTheRunAndLeavesOnlyWhatWasThereBefore(String strategy, String signal, @TempDir Path dir)
            throws Exception {
        Path out = dir.resolve("out");
        Files.createDirectories(out);
        Files.writeString(out.resolve("notes.txt"), "mine");
        Files.writeString(out.resolve("myapp-flame.html"), "<html/>");
        Files.writeString(out.resolve("shuffle_1_0_0.data"), "another shuffle's");
        Map<String, Long> before = listing(out);
        List<String> args = new ArrayList<>(List.of("write", "--strategy", strategy, "--size", "small", "--scale",
                "0.5", "--fsync", "--out", out.toString()));
        if (strategy.contains("skipMerge=true")) {
            args.addAll(List.of("--memory-limit", "4g"));
        }
        CliProcess run = CliProcess.start(args);
        try {
            assertTrue(run.awaitWave(120), "the wave never started: " + run.err());
            run.signal(signal);
        } finally {
            run.finish(120);
        }
        String log = run.err();
        assertEquals(signal.equals("INT") ? 130 : 143, run.process.exitValue(), log);
        assertTrue(log.contains("sluice: interrupted: stopping the run") && log.contains("nothing this run wrote is left"),
                log);
        assertFalse(log.contains("at once with " + strategy + " done"), "the wave had ended before the signal: " + log);
        assertEquals(before, listing(out), "what the directory holds after SIG" + signal + "; " + log);
        assertFalse(Files.exists(out.resolve(OwnedFiles.LIST)));
    }

    /** Every file of {@code dir} with its size. */
    private static Map<String, Long> listing(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.collect(Collectors.toMap(p -> p.getFileName().toString(), p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    return -1L;
                }
            }, (a, b) -> a, TreeMap::new));
        }
    }
}
