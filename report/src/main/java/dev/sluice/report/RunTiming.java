package dev.sluice.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a run's time went, from its {@code timing.tsv} (each JMH run's file and wall seconds, as the runner timed
 * them): the paired configurations' chunks, the references beside them (raw writes, floors, paced writes) and the
 * noise floor; with the budget its {@code plan.txt} names, where it has one.
 */
public final class RunTiming {
    /** A paired configuration's chunk: {@code NN-NAME-cK}, or {@code NN-NAME-cK-sS} fork by fork. */
    private static final Pattern CHUNK = Pattern.compile("\\d+-.*-c\\d+(-s\\d+)?");
    private static final Pattern BUDGET = Pattern.compile("the (\\d+) s budget");

    /** The run directory's list of references copied from the reference cache: file, when and commit, entry. */
    public static final String CACHED = "cache.tsv";
    /**
     * The run directory's list of references that waited for the comparisons and did not fit in what was left of the
     * budget: file and why.
     */
    public static final String UNMEASURED = "unmeasured.tsv";

    public final double chunkSeconds;
    public final double referenceSeconds;
    public final double noiseFloorSeconds;
    /** The plan's budget in seconds; 0 for none or unknown. */
    public final long budget;
    /** The references copied from the reference cache, with when and at which commit each was measured. */
    public final java.util.List<String> cached;
    /** The references not measured in the run, with why (the budget): their result is not in it. */
    public final java.util.List<String> unmeasured;

    RunTiming(double chunkSeconds, double referenceSeconds, double noiseFloorSeconds, long budget,
              java.util.List<String> cached, java.util.List<String> unmeasured) {
        this.chunkSeconds = chunkSeconds;
        this.referenceSeconds = referenceSeconds;
        this.noiseFloorSeconds = noiseFloorSeconds;
        this.budget = budget;
        this.cached = java.util.List.copyOf(cached);
        this.unmeasured = java.util.List.copyOf(unmeasured);
    }

    /** The timing of the run directory {@code dir}; empty where it has no timing.tsv. */
    public static Optional<RunTiming> read(Path dir) throws IOException {
        Path file = dir.resolve("timing.tsv");
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        double chunks = 0;
        double references = 0;
        double noise = 0;
        for (String line : Files.readAllLines(file)) {
            String[] parts = line.split("\t");
            if (parts.length != 2) {
                continue;
            }
            double seconds;
            try {
                seconds = Double.parseDouble(parts[1]);
            } catch (NumberFormatException e) {
                throw new IOException(file + ": '" + line + "' is no file and seconds", e);
            }
            if (CHUNK.matcher(parts[0]).matches()) {
                chunks += seconds;
            } else if (parts[0].endsWith("noise-floor")) {
                noise += seconds;
            } else {
                references += seconds;
            }
        }
        long budget = 0;
        Path plan = dir.resolve("plan.txt");
        if (Files.isRegularFile(plan)) {
            Matcher m = BUDGET.matcher(Files.readString(plan));
            budget = m.find() ? Long.parseLong(m.group(1)) : 0;
        }
        java.util.List<String> cached = named(dir.resolve(CACHED), "measured ");
        java.util.List<String> unmeasured = named(dir.resolve(UNMEASURED), "");
        return Optional.of(new RunTiming(chunks, references, noise, budget, cached, unmeasured));
    }

    /**
     * The lines of a run directory's list {@code file} (a reference's file, a tab, what is said of it, ...) as "FILE
     * (PREFIX SAID)"; none where the run has no such file.
     */
    private static java.util.List<String> named(Path file, String prefix) throws IOException {
        java.util.List<String> named = new java.util.ArrayList<>();
        if (Files.isRegularFile(file)) {
            for (String line : Files.readAllLines(file)) {
                String[] parts = line.split("\t");
                if (parts.length >= 2) {
                    named.add(parts[0] + " (" + prefix + parts[1] + ")");
                }
            }
        }
        return named;
    }

    /** Every JMH run's seconds. */
    public double totalSeconds() {
        return chunkSeconds + referenceSeconds + noiseFloorSeconds;
    }

    /** The first screen's line: what the references and the noise floor took of the run, and of its budget. */
    String line() {
        double overhead = referenceSeconds + noiseFloorSeconds;
        return String.format(Locale.ROOT, "Overhead: the references (raw writes, floors, paced writes) took %.0f s and "
                        + "the noise floor %.0f s, %.1f%% of the run's %.0f s of JMH runs%s; the paired chunks %.0f s "
                        + "(timing.tsv)%s%s.", referenceSeconds, noiseFloorSeconds, 100 * overhead / totalSeconds(),
                totalSeconds(), budget > 0 ? String.format(Locale.ROOT, " (%.1f%% of its %d s budget)",
                        100 * overhead / budget, budget) : "", chunkSeconds, cached.isEmpty() ? ""
                        : "; from the reference cache, not run here (" + CACHED + "): " + String.join(", ", cached),
                unmeasured.isEmpty() ? "" : "; not measured, having waited for the comparisons (" + UNMEASURED
                        + "; the next run of this build measures them first): " + String.join(", ", unmeasured));
    }
}
