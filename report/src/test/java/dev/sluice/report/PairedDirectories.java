package dev.sluice.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Run directories of one paired configuration, as the runner makes them, for tests of its results (here and in the
 * bench module's tests of the schedules, through this module's test-jar).
 */
public final class PairedDirectories {
    /** The strategies of {@link #tinyWithRawWrite}, the baseline first. */
    public static final List<String> FOUR = List.of("per-batch", "buffered", "async:skipMerge=true", "ideal");

    private PairedDirectories() {}

    /** Round r: per-batch 100 + 10r ms, buffered 80% of it, skip-merge 50%, ideal 40%: drift that pairs cancel. */
    public static double[][] rounds(int count, int from) {
        double[][] t = new double[count][];
        for (int r = 0; r < count; r++) {
            double base = 100 + 10 * (r + from);
            t[r] = new double[] {base, 0.8 * base, 0.5 * base, 0.4 * base};
        }
        return t;
    }

    /** A paired tiny of {@link #FOUR}, one warm-up wave and three rounds each, and its raw write, in {@code design}. */
    public static RunDirectory tinyWithRawWrite(Path dir, String design) throws IOException {
        Files.createDirectories(dir.resolve("runs"));
        Map<String, String> params = new LinkedHashMap<>();
        params.put("size", "tiny");
        params.put("device", "native");
        params.put("scale", "1");
        params.put("tasks", "1");
        params.put("codec", "lz4-block");
        return new RunDirectory(dir, design, List.of(new RunDirectory.Config("01-tiny", "tiny", 100, FOUR, 3,
                params), new RunDirectory.Config("02-tiny-raw", "tiny-raw", 25, List.of(), 5, params)));
    }

    /** Configuration {@code 01-SIZE} of {@code strategies}, the baseline first, in chunks of rounds. */
    static RunDirectory of(Path dir, String size, List<String> strategies) {
        return new RunDirectory(dir, PairedRun.ROUNDS, List.of(new RunDirectory.Config("01-" + size, size, 1,
                strategies, 1, Map.of("size", size))));
    }
}
