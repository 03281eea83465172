package dev.sluice.jmh.write;

import dev.sluice.core.device.EmulatedDevice;
import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.core.run.DirtyPages;
import dev.sluice.core.run.ReduceRead;
import dev.sluice.core.run.Trial;
import dev.sluice.core.run.Wave;
import dev.sluice.core.run.WaveResult;
import dev.sluice.core.run.WaveVerification;
import dev.sluice.core.run.Workload;
import dev.sluice.jmh.profile.Figures;
import dev.sluice.jmh.state.FailedSetup;
import dev.sluice.jmh.state.GateState;
import dev.sluice.jmh.state.InputState;
import dev.sluice.jmh.state.StorageState;
import dev.sluice.jmh.state.TrialDirectory;
import dev.sluice.jmh.state.WorkloadState;
import dev.sluice.jmh.state.WriterSettings;
import dev.sluice.spi.InvalidParameterException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * The strategies of a {@link PairedWaveBenchmark} trial, taking turns: each iteration is one wave of one of them, a
 * round one wave of each, so that the waves a ratio is taken between run minutes apart at most, on the same inputs,
 * and slow drift of a shared machine cancels in the ratio. Round r starts at strategy r mod k and goes on in list
 * order, so that no strategy always follows the same one (a fixed order A B C, A B C would give B every wave after
 * A's writeback). Warm-up iterations go through the strategies in list order.
 *
 * <p>Each strategy's executor lives for its own wave only: it is started in the iteration's setup and stopped, with
 * whatever it keeps between map tasks, in its teardown, so that no strategy's memory is held while another one's wave
 * runs, and the page cache every wave finds is the one a trial of that strategy alone would find. A strategy whose
 * executor still holds memory once a wave's outputs are gone (a buffer pool: {@code ideal}, {@code pool=true}), as its
 * warm-up wave shows, would then start every wave with an empty pool, which a trial of it alone does once: so each of
 * its measured waves follows an unmeasured wave of the full input in the same executor, outside the time, and the
 * gate runs again after it. Before every wave the heap is collected ({@code System.gc()}, outside the time), so that
 * no wave pays for the garbage of another strategy's.
 */
@State(Scope.Benchmark)
public class PairedState {
    /** The strategy specs, separated by {@value WriterSettings#LIST}; the first is the baseline of the ratios. */
    @Param({"per-batch+buffered+async"})
    public String strategies;

    private final List<Trial> trials = new ArrayList<>();
    /** Each strategy's directory on the trial's storage. */
    private final List<Path> dirs = new ArrayList<>();
    /** Per strategy: whether its executor held memory after a wave whose outputs were removed (a pool). */
    private boolean[] keeps;
    /** Per strategy: the memory its last wave took ({@link WaveResult#memoryTaken}), for the gate's prefault. */
    private long[] memoryTaken;
    private final WaveVerification verification = IterationState.verification();
    private InputState inputs;
    private DirtyPages dirty;
    private EmulatedDevice device;
    private Wave wave;
    private int warmUps;
    private int measured;
    /** This iteration's strategy (an index into {@link #trials}) and round; -1 for a warm-up. */
    private int current;
    private int round;
    private boolean warmingUp;
    private WaveResult result;

    @Setup(Level.Trial)
    public void start(WorkloadState workloadState, WriterSettings settings, InputState inputs, GateState gate,
                      StorageState storageState, BenchmarkParams params) throws Exception {
        this.inputs = inputs;
        this.dirty = gate.dirty();
        this.device = storageState.emulated();
        Workload workload = workloadState.workload();
        List<String> specs = WriterSettings.split(strategies);
        if (specs.size() < 2 || specs.stream().anyMatch(String::isBlank)) {
            throw new InvalidParameterException(BenchmarkParam.STRATEGIES.key(), strategies, "two or more strategy specs separated by '"
                    + WriterSettings.LIST + "', the baseline first (example: per-batch" + WriterSettings.LIST
                    + "buffered" + WriterSettings.LIST + "async)");
        }
        int k = specs.size();
        int wi = params.getWarmup().getCount();
        int i = params.getMeasurement().getCount();
        if (wi % k != 0 || i % k != 0) {
            throw new InvalidParameterException(wi % k != 0 ? "-wi" : "-i", String.valueOf(wi % k != 0 ? wi : i),
                    "a multiple of the " + k + " strategies (each round is one wave of each: -wi " + k + " -i "
                            + 5 * k + " gives one warm-up wave and five measured rounds)");
        }
        List<String> limits = settings.memoryLimits(k);
        List<Boolean> countings = settings.countings(k);
        for (int s = 0; s < k; s++) {
            trials.add(settings.check(BenchmarkParam.STRATEGIES.key(), specs.get(s), limits.get(s), workload));
        }
        keeps = new boolean[k];
        memoryTaken = new long[k];
        try {
            inputs.prepare();
            for (int s = 0; s < k; s++) {
                Path dir = storageState.newTrialDirectory("sluice-jmh-");
                dirs.add(dir);
                trials.get(s).open(dir, WriterSettings.storage(countings.get(s)), inputs.allocator());
            }
            wave = new Wave(inputs.input().size(), workload.producer);
        } catch (Exception | Error e) {
            FailedSetup.undo(e, this::stop);
            throw e;
        }
    }

    /**
     * Chooses this iteration's strategy and starts its executor; for a strategy that keeps a pool, runs the unmeasured
     * wave that fills it and lets the gate settle again; then collects the heap and, last, lets the gate prefault
     * the memory this strategy's last wave took ({@link GateState#prefault}). (The gate's own setup runs first.)
     */
    @Setup(Level.Iteration)
    public void next(IterationParams params, GateState gate) throws Exception {
        int k = trials.size();
        warmingUp = params.getType() == IterationType.WARMUP;
        if (warmingUp) {
            current = warmUps++ % k;
            round = -1;
        } else {
            round = measured / k;
            current = (measured % k + round) % k;
            measured++;
        }
        Trial trial = trials.get(current);
        trial.startExecutor();
        if (!warmingUp && keeps[current]) {
            trial.runWave(wave, inputs.input(), null).delete(trial.storage());
            gate.settle();
        }
        System.gc();
        gate.prefault(memoryTaken[current]);
    }

    /** One wave of every task at once through this iteration's strategy; kept for the iteration's teardown. */
    WaveResult runWave() throws Exception {
        result = trials.get(current).runWave(wave, warmingUp ? inputs.warmUp() : inputs.input(), dirty);
        return result;
    }

    /**
     * After the wave (outside its time): a measured wave is read, verified and recorded with its strategy and round
     * for {@link ShuffleIoProfiler}; every wave's outputs are removed and its strategy's executor stopped.
     */
    @TearDown(Level.Iteration)
    public void readVerifyAndRemove(GateState gate) throws Exception {
        Trial trial = trials.get(current);
        try {
            if (result != null && !warmingUp) {
                ReduceRead.Result read = IterationState.readAndVerify(verification, result, trial, inputs.allocator());
                Figures.publish(WaveFigures.paired(result, read, gate.settled(), device, current, round));
            }
        } finally {
            try {
                if (result != null) {
                    memoryTaken[current] = result.memoryTaken();
                    result.delete(trial.storage());
                    if (!keeps[current] && trial.heldBytes() > 0) {
                        keeps[current] = true;
                        System.out.printf(Locale.ROOT, "%nsluice paired: %s keeps %d bytes between waves: each of "
                                + "its measured waves follows an unmeasured one that fills them%n", trial.text,
                                trial.heldBytes());
                    }
                }
            } finally {
                result = null;
                trial.stopExecutor();
            }
        }
    }

    @TearDown(Level.Trial)
    public void stop() throws IOException {
        IOException failure = null;
        if (wave != null) {
            wave.close();
        }
        for (Trial trial : trials) {
            try {
                trial.close();
            } catch (RuntimeException e) {
                failure = add(failure, e);
            }
        }
        for (Path dir : dirs) {
            try {
                TrialDirectory.remove(dir);
            } catch (IOException | RuntimeException e) {
                failure = add(failure, e);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static IOException add(IOException first, Exception next) {
        if (first == null) {
            return next instanceof IOException ? (IOException) next : new IOException(next);
        }
        first.addSuppressed(next);
        return first;
    }
}
