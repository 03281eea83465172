package dev.sluice.jmh;

import dev.sluice.spi.PartitionReader;
import dev.sluice.core.run.MapTaskResult;
import dev.sluice.core.run.ReduceRead;
import dev.sluice.core.run.WaveResult;
import dev.sluice.core.verify.OutputDigest;
import dev.sluice.core.verify.Reference;
import dev.sluice.core.verify.VerificationResult;
import dev.sluice.core.verify.VerifiedDigests;
import dev.sluice.core.verify.Verifier;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.arrow.memory.BufferAllocator;

/**
 * What follows a measured wave, outside its time: the reduce side reads every partition of every output, timed on its
 * own (the seed's query total is the wave plus this read); then every output is verified, so that a strategy that
 * writes wrong bytes fails instead of scoring. The first wave of a trial is verified row by row against its
 * references (or by digest against outputs of the same input that an earlier fork of the run verified row by row,
 * {@value #VERIFIED_DIGESTS_PROPERTY}); every later one by its bytes' digests against the first's. Every strategy
 * writes the same bytes for the same input, so the strategies that {@link PairedState} interleaves share one check:
 * the first wave of any of them is the one verified row by row.
 */
final class WaveCheck {
    /**
     * A directory where forks of one run share the digests of outputs they verified row by row (scripts/bench.sh sets
     * it for its run); unset, every fork verifies its first wave row by row.
     */
    static final String VERIFIED_DIGESTS_PROPERTY = "sluice.verifiedDigests";

    /** Each task's output digest, from the first wave, once it was verified row by row; and who wrote it. */
    private List<OutputDigest> verified;
    private String verifiedStrategy;
    /** The strategies whose waves this check has verified, to say so once for each. */
    private final java.util.Set<String> seen = new java.util.HashSet<>();

    /** Reads every output of {@code wave} as the reduce side does, then verifies it; returns the read. */
    ReduceRead.Result readAndVerify(WaveResult wave, StrategyTrial trial, BufferAllocator allocator)
            throws Exception {
        ReduceRead.Result read = ReduceRead.readAll(wave.outputs(), trial.storage());
        if (verified == null) {
            verified = verifyFirst(wave, trial, allocator);
            verifiedStrategy = trial.text;
            seen.add(trial.text);
            return read;
        }
        List<OutputDigest> digests = digests(false, wave, trial, allocator);
        for (int t = 0; t < digests.size(); t++) {
            int p = digests.get(t).firstDifference(verified.get(t));
            if (p >= 0) {
                throw new IllegalStateException("strategy " + trial.text + " wrote different bytes for map " + t
                        + ", partition " + p + ", than " + (verifiedStrategy.equals(trial.text) ? "in its"
                        : verifiedStrategy + " in the") + " verified first wave");
            }
        }
        if (seen.add(trial.text)) {
            System.out.printf("%nsluice verify: %s, %d outputs hold the bytes of %s's outputs verified row by row "
                    + "in this trial%n", trial.text, digests.size(), verifiedStrategy);
        }
        return read;
    }

    private static OutputDigest check(MapTaskResult task, boolean rowByRow, StrategyTrial trial,
                                      BufferAllocator allocator) throws Exception {
        try (PartitionReader reader = task.output.openReader(trial.storage())) {
            if (rowByRow) {
                VerificationResult rows = Verifier.verify(reader, task.input.reference, task.input.schema,
                        trial.codec(), allocator);
                if (!rows.ok()) {
                    throw new IllegalStateException("strategy " + trial.text + " wrote wrong bytes for map "
                            + task.input.mapId + ": " + rows);
                }
            }
            return OutputDigest.of(reader);
        }
    }

    /**
     * The first wave's outputs, row by row against their references; or, where {@value #VERIFIED_DIGESTS_PROPERTY}
     * names a directory that holds outputs of this same input verified row by row by an earlier fork of the run, by
     * comparing the bytes' digests with those ({@link VerifiedDigests} says why that is a verification).
     */
    private static List<OutputDigest> verifyFirst(WaveResult wave, StrategyTrial trial, BufferAllocator allocator)
            throws Exception {
        String property = System.getProperty(VERIFIED_DIGESTS_PROPERTY, "");
        VerifiedDigests cache = property.isBlank() ? null : new VerifiedDigests(Paths.get(property));
        String key = null;
        if (cache != null) {
            List<Reference> references = new ArrayList<>();
            for (MapTaskResult task : wave.tasks) {
                references.add(task.input.reference);
            }
            key = VerifiedDigests.key(wave.tasks.get(0).input.schema, trial.codec(), references);
            Optional<List<OutputDigest>> known = cache.lookup(key);
            if (known.isPresent()) {
                List<OutputDigest> digests = digests(false, wave, trial, allocator);
                if (digests.equals(known.get())) {
                    System.out.printf("%nsluice verify: %s, %d outputs hold the bytes of outputs verified row by row "
                            + "earlier in this run (%s)%n", trial.text, digests.size(), cache);
                    return digests;
                }
            }
        }
        List<OutputDigest> digests = digests(true, wave, trial, allocator);
        if (cache != null) {
            cache.record(key, digests);
        }
        System.out.printf("%nsluice verify: %s, %d outputs verified row by row%n", trial.text, digests.size());
        return digests;
    }

    /** Every task's output digest, checked row by row first if {@code rowByRow}; the tasks in parallel. */
    private static List<OutputDigest> digests(boolean rowByRow, WaveResult wave, StrategyTrial trial,
                                              BufferAllocator allocator) throws Exception {
        List<Future<OutputDigest>> checks = new ArrayList<>();
        ExecutorService threads = Executors.newFixedThreadPool(Math.min(wave.tasks.size(),
                Runtime.getRuntime().availableProcessors()));
        List<OutputDigest> digests = new ArrayList<>();
        try {
            for (MapTaskResult task : wave.tasks) {
                checks.add(threads.submit(() -> check(task, rowByRow, trial, allocator)));
            }
            for (Future<OutputDigest> check : checks) {
                try {
                    digests.add(check.get());
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
                }
            }
        } finally {
            threads.shutdownNow();
        }
        return digests;
    }
}
