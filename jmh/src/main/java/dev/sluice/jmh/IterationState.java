package dev.sluice.jmh;

import dev.sluice.core.output.PartitionReader;
import dev.sluice.core.run.MapTaskResult;
import dev.sluice.core.run.ReduceRead;
import dev.sluice.core.run.WaveResult;
import dev.sluice.core.verify.OutputDigest;
import dev.sluice.core.verify.Reference;
import dev.sluice.core.verify.VerifiedDigests;
import dev.sluice.core.verify.VerificationResult;
import dev.sluice.core.verify.Verifier;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * After each measured wave (outside its time): the reduce side reads every partition of every output, timed on its
 * own (the seed's query total is the wave plus this read); every output is verified, the first measured wave's row by
 * row against its reference, every later one by the bytes' digest against the first's, so that a strategy that
 * writes wrong bytes fails instead of scoring; the iteration's figures go to {@link ShuffleIoProfiler}; and the
 * outputs are removed, so that the next iteration starts from none. A warm-up wave's outputs (of the inputs' warm-up
 * copies, see {@link InputState}) are only removed.
 */
@State(Scope.Benchmark)
public class IterationState {
    /**
     * A directory where forks of one run share the digests of outputs they verified row by row (scripts/bench.sh sets
     * it for its run); unset, every fork verifies its first wave row by row.
     */
    public static final String VERIFIED_DIGESTS_PROPERTY = "sluice.verifiedDigests";

    private WaveResult wave;
    /** Each task's output digest, from the first wave, once it was verified row by row. */
    private List<OutputDigest> verified;

    /** The benchmark hands over the wave it measured. */
    void measured(WaveResult result) {
        wave = result;
    }

    private static OutputDigest check(MapTaskResult task, boolean rowByRow, ExecutorState executor,
                                      WriterState writers, InputState inputs) throws Exception {
        try (PartitionReader reader = task.output.openReader(executor.storage())) {
            if (rowByRow) {
                VerificationResult rows = Verifier.verify(reader, task.input.reference, task.input.schema,
                        writers.config().codec, inputs.allocator());
                if (!rows.ok()) {
                    throw new IllegalStateException("strategy " + writers.strategy + " wrote wrong bytes for map "
                            + task.input.mapId + ": " + rows);
                }
            }
            return OutputDigest.of(reader);
        }
    }

    @TearDown(Level.Iteration)
    public void readVerifyAndRemove(ExecutorState executor, GateState gate, WriterState writers, InputState inputs,
                                    IterationParams params) throws Exception {
        if (wave == null) {
            return;
        }
        try {
            if (params.getType() == IterationType.WARMUP) {
                return; // a warm-up copy's output: removed below, neither read nor verified, as it is not measured
            }
            ReduceRead.Result read = ReduceRead.readAll(wave.outputs(), executor.storage());
            verify(executor, writers, inputs);
            IterationRecord.publish(new IterationRecord(wave.tasks.size(), wave.tasks.get(0).input.bytes,
                    wave.tasks.get(0).input.batches, wave.outputs().stream().mapToLong(o -> o.totalBytes()).sum(),
                    wave.wallNanos, wave.sumTaskNanos(),
                    wave.slowestTaskNanos(), read.nanos, wave.io, wave.proc, wave.peakBufferedBytes(),
                    wave.peakDirtyBytes, gate.settled(), executor.device()));
        } finally {
            wave.delete(executor.storage());
            wave = null;
        }
    }

    /** Checks every task's output, the tasks in parallel (this is outside the measured time, but not free). */
    private void verify(ExecutorState executor, WriterState writers, InputState inputs) throws Exception {
        if (verified == null) {
            verified = verifyFirst(executor, writers, inputs);
            return;
        }
        List<OutputDigest> digests = digests(false, executor, writers, inputs);
        for (int t = 0; t < digests.size(); t++) {
            int p = digests.get(t).firstDifference(verified.get(t));
            if (p >= 0) {
                throw new IllegalStateException("strategy " + writers.strategy + " wrote different bytes for map " + t
                        + ", partition " + p + ", than in its verified first wave");
            }
        }
    }

    /**
     * The first wave's outputs, row by row against their references; or, where {@value #VERIFIED_DIGESTS_PROPERTY}
     * names a directory that holds outputs of this same input verified row by row by an earlier fork of the run, by
     * comparing the bytes' digests with those ({@link VerifiedDigests} says why that is a verification).
     */
    private List<OutputDigest> verifyFirst(ExecutorState executor, WriterState writers, InputState inputs)
            throws Exception {
        String property = System.getProperty(VERIFIED_DIGESTS_PROPERTY, "");
        VerifiedDigests cache = property.isBlank() ? null : new VerifiedDigests(Paths.get(property));
        String key = null;
        if (cache != null) {
            List<Reference> references = new ArrayList<>();
            for (MapTaskResult task : wave.tasks) {
                references.add(task.input.reference);
            }
            key = VerifiedDigests.key(wave.tasks.get(0).input.schema, writers.config().codec, references);
            Optional<List<OutputDigest>> known = cache.lookup(key);
            if (known.isPresent()) {
                List<OutputDigest> digests = digests(false, executor, writers, inputs);
                if (digests.equals(known.get())) {
                    System.out.printf("%nsluice verify: %s, %d outputs hold the bytes of outputs verified row by row "
                            + "earlier in this run (%s)%n", writers.strategy, digests.size(), cache);
                    return digests;
                }
            }
        }
        List<OutputDigest> digests = digests(true, executor, writers, inputs);
        if (cache != null) {
            cache.record(key, digests);
        }
        System.out.printf("%nsluice verify: %s, %d outputs verified row by row%n", writers.strategy, digests.size());
        return digests;
    }

    /** Every task's output digest, checked row by row first if {@code rowByRow}. */
    private List<OutputDigest> digests(boolean rowByRow, ExecutorState executor, WriterState writers,
                                       InputState inputs) throws Exception {
        List<Future<OutputDigest>> checks = new ArrayList<>();
        ExecutorService threads = Executors.newFixedThreadPool(Math.min(wave.tasks.size(),
                Runtime.getRuntime().availableProcessors()));
        List<OutputDigest> digests = new ArrayList<>();
        try {
            for (MapTaskResult task : wave.tasks) {
                checks.add(threads.submit(() -> check(task, rowByRow, executor, writers, inputs)));
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
