package dev.sluice.report;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Run directories of one paired configuration, run in rounds, as the runner makes them, for tests of its results. */
final class PairedDirectories {
    private PairedDirectories() {}

    /** Configuration {@code 01-SIZE} of {@code strategies}, the baseline first, in chunks of rounds. */
    static RunDirectory of(Path dir, String size, List<String> strategies) {
        return new RunDirectory(dir, PairedRun.ROUNDS, List.of(new RunDirectory.Config("01-" + size, size, 1,
                strategies, 1, Map.of("size", size))));
    }
}
