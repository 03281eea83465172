package dev.sluice.testkit;

import java.util.List;
import java.util.stream.Collectors;

public final class Threads {
    private Threads() {}

    /** Live threads Sluice started (all are named {@code sluice-...}). */
    public static List<String> sluiceThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("sluice-"))
                .map(Thread::getName)
                .collect(Collectors.toList());
    }
}
