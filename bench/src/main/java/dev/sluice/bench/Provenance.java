package dev.sluice.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a run's code came from: the repository's commit, marked where tracked files have changes, as the run's
 * environment.json records it. scripts/bench.sh's runner and scripts/net-map ({@code java -cp sluice-bench.jar
 * dev.sluice.bench.Provenance REPOSITORY}) take it from here.
 */
public final class Provenance {
    /** What a commit is said to be outside a git checkout. */
    static final String UNKNOWN = "unknown";

    private Provenance() {}

    /** Prints the commit of the repository at {@code args[0]} (default: the working directory). */
    public static void main(String[] args) {
        System.out.println(commit(Paths.get(args.length > 0 ? args[0] : ".")));
    }

    /** The commit of {@code root}, with " (with uncommitted changes)" where tracked files changed; else unknown. */
    public static String commit(Path root) {
        String head = git(root, "rev-parse", "HEAD");
        if (head == null || head.isBlank()) {
            return UNKNOWN;
        }
        String status = git(root, "status", "--porcelain");
        boolean changed = status != null && status.lines().anyMatch(l -> !l.startsWith("??"));
        return head.trim() + (changed ? " (with uncommitted changes)" : "");
    }

    private static String git(Path root, String... args) {
        List<String> command = new ArrayList<>(List.of("git", "-C", root.toString()));
        command.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String text;
            try (InputStream in = p.getInputStream()) {
                text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            return p.waitFor() == 0 ? text : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
