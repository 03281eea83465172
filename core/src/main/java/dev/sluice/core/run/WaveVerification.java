package dev.sluice.core.run;

import dev.sluice.core.verify.Expected;
import dev.sluice.core.verify.OutputDigest;
import dev.sluice.core.verify.VerificationResult;
import dev.sluice.core.verify.VerifiedDigests;
import dev.sluice.core.verify.Verifier;
import dev.sluice.spi.PartitionReader;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The one verification policy of Sluice's runs, so that a strategy that writes wrong bytes fails instead of scoring:
 * a run's first wave is verified row by row against each task's expected rows (or, where a {@link VerifiedDigests}
 * directory holds outputs of this same input that an earlier JVM of the run verified row by row, by comparing the
 * bytes' digests with those); every later wave, of any strategy, by its bytes' digests against the first's: every
 * strategy writes the same bytes for the same input. The tasks are checked in parallel, outside any measured time.
 */
public final class WaveVerification {
    /** A wave's verdict: every task's row-by-row result where it was read row by row, and the first failure. */
    public static final class Outcome {
        /** Per task, in task order; empty where the wave was verified by digests. */
        public final List<VerificationResult> rows;
        /** Why the wave is wrong, or null if it is right. */
        public final String failure;

        Outcome(List<VerificationResult> rows, String failure) {
            this.rows = rows;
            this.failure = failure;
        }

        public boolean ok() {
            return failure == null;
        }
    }

    private final VerifiedDigests shared;
    private final PrintStream log;
    /** Each task's output digest, from the first wave, once it was verified; and which strategy wrote it. */
    private List<OutputDigest> verified;
    private String verifiedBy;
    /** The strategies whose waves were verified, to say so once for each. */
    private final Set<String> seen = new HashSet<>();

    /**
     * @param shared digests that other JVMs of the run verified row by row, or null to verify the first wave row by row
     * @param log where to say how each strategy's first wave was verified, or null to say nothing
     */
    public WaveVerification(VerifiedDigests shared, PrintStream log) {
        this.shared = shared;
        this.log = log;
    }

    /** Verifies {@code wave}, written by {@code trial}; reads with memory of {@code allocator}. */
    public Outcome verify(WaveResult wave, Trial trial, BufferAllocator allocator) throws Exception {
        if (verified == null) {
            return first(wave, trial, allocator);
        }
        List<OutputDigest> digests = digests(false, wave, trial, allocator, new ArrayList<>());
        for (int t = 0; t < digests.size(); t++) {
            int p = digests.get(t).firstDifference(verified.get(t));
            if (p >= 0) {
                return new Outcome(List.of(), "strategy " + trial.text + " wrote different bytes for map " + t
                        + ", partition " + p + ", than " + (verifiedBy.equals(trial.text) ? "in its"
                        : verifiedBy + " in the") + " verified first wave");
            }
        }
        if (seen.add(trial.text) && log != null) {
            log.printf("%nsluice verify: %s, %d outputs hold the bytes of %s's outputs verified row by row in this "
                    + "trial%n", trial.text, digests.size(), verifiedBy);
        }
        return new Outcome(List.of(), null);
    }

    private Outcome first(WaveResult wave, Trial trial, BufferAllocator allocator) throws Exception {
        String key = null;
        if (shared != null) {
            List<Expected> expected = new ArrayList<>();
            for (MapTaskResult task : wave.tasks) {
                expected.add(task.input.expected);
            }
            key = VerifiedDigests.key(wave.tasks.get(0).input.schema, trial.codec(), expected);
            Optional<List<OutputDigest>> known = shared.lookup(key);
            if (known.isPresent()) {
                List<OutputDigest> digests = digests(false, wave, trial, allocator, new ArrayList<>());
                if (digests.equals(known.get())) {
                    say("%nsluice verify: %s, %d outputs hold the bytes of outputs verified row by row "
                            + "earlier in this run (%s)%n", trial.text, digests.size(), shared);
                    remember(digests, trial);
                    return new Outcome(List.of(), null);
                }
            }
        }
        List<VerificationResult> rows = new ArrayList<>();
        List<OutputDigest> digests = digests(true, wave, trial, allocator, rows);
        for (int t = 0; t < rows.size(); t++) {
            if (!rows.get(t).ok()) {
                return new Outcome(rows, "strategy " + trial.text + " wrote wrong bytes for map "
                        + wave.tasks.get(t).input.mapId + ": " + rows.get(t));
            }
        }
        if (shared != null) {
            shared.record(key, digests);
        }
        say("%nsluice verify: %s, %d outputs verified row by row%n", trial.text, digests.size());
        remember(digests, trial);
        return new Outcome(rows, null);
    }

    private void say(String format, Object... args) {
        if (log != null) {
            log.printf(format, args);
        }
    }

    private void remember(List<OutputDigest> digests, Trial trial) {
        verified = digests;
        verifiedBy = trial.text;
        seen.add(trial.text);
    }

    /** Every task's output digest, checked row by row first if {@code rowByRow} (results into {@code rows}). */
    private static List<OutputDigest> digests(boolean rowByRow, WaveResult wave, Trial trial,
                                              BufferAllocator allocator, List<VerificationResult> rows)
            throws Exception {
        List<Future<Object[]>> checks = new ArrayList<>();
        ExecutorService threads = Executors.newFixedThreadPool(Math.min(wave.tasks.size(),
                Runtime.getRuntime().availableProcessors()));
        List<OutputDigest> digests = new ArrayList<>();
        try {
            for (MapTaskResult task : wave.tasks) {
                checks.add(threads.submit(() -> {
                    try (PartitionReader reader = task.output.openReader(trial.storage())) {
                        VerificationResult result = rowByRow ? Verifier.verify(reader, task.input.expected,
                                task.input.schema, trial.codec(), allocator) : null;
                        return new Object[] {result, OutputDigest.of(reader)};
                    }
                }));
            }
            for (Future<Object[]> check : checks) {
                Object[] r;
                try {
                    r = check.get();
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
                }
                if (rowByRow) {
                    rows.add((VerificationResult) r[0]);
                }
                digests.add((OutputDigest) r[1]);
            }
        } finally {
            threads.shutdownNow();
        }
        return digests;
    }
}
