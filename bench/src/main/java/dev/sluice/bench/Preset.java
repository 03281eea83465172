package dev.sluice.bench;

import dev.sluice.core.device.DeviceSpec;
import dev.sluice.core.run.Workload;
import java.util.List;

/**
 * One preset's choices ({@link BenchPlan#presets}), which the options of scripts/bench.sh override. Made by naming
 * each choice that differs from the defaults ({@link #of}: one warm-up wave, three measured, no noise floor, a quarter
 * of every record in warm-ups, native storage, paired rounds, no budget).
 */
final class Preset {
    final List<String> sizes;
    final String scale;
    /** Map tasks at once; null: one per processor of this machine (at most {@value BenchPlan#MAX_TASKS}). */
    final String tasks;
    final int warmups;
    final int iterations;
    /** Whether the run measures the machine's own spread first (NoiseFloorBenchmark). */
    final boolean noiseFloor;
    /** The strategies, the baseline first. */
    final List<String> strategies;
    /** What warm-up waves write (InputState's {@code warmUp}). */
    final String warmUp;
    /** The devices every configuration runs on (StorageState's {@code device}). */
    final List<String> devices;
    /**
     * How a size's strategies are measured: {@value BenchPlan#ROUNDS}, {@value BenchPlan#FORKS} or
     * {@value BenchPlan#OFF}.
     */
    final String paired;
    /** The time budget of adaptive stopping in seconds, or 0 for none (a fixed count of rounds). */
    final long budget;
    /** The reduce partitions, one configuration per count ({@link Workload#DEFAULT_PARTITIONS} alone by default). */
    final List<String> partitions;
    /**
     * The executor memory limits, one configuration per limit, each given to every strategy; empty: each strategy's
     * own ({@link BenchPlan#NO_LIMIT}, or {@code machine} where it needs a limit).
     */
    final List<String> memoryLimits;

    private Preset(List<String> sizes, String scale, String tasks, int warmups, int iterations, boolean noiseFloor,
                   List<String> strategies, String warmUp, List<String> devices, String paired, long budget,
                   List<String> partitions, List<String> memoryLimits) {
        this.sizes = List.copyOf(sizes);
        this.scale = scale;
        this.tasks = tasks;
        this.warmups = warmups;
        this.iterations = iterations;
        this.noiseFloor = noiseFloor;
        this.strategies = List.copyOf(strategies);
        this.warmUp = warmUp;
        this.devices = List.copyOf(devices);
        this.paired = paired;
        this.budget = budget;
        this.partitions = List.copyOf(partitions);
        this.memoryLimits = List.copyOf(memoryLimits);
    }

    /** {@code strategies} at {@code sizes} and {@code scale}, one task per processor, with the defaults above. */
    static Preset of(List<String> sizes, String scale, List<String> strategies) {
        return new Preset(sizes, scale, null, 1, 3, false, strategies, dev.sluice.core.run.BenchmarkTerms.QUARTER,
                List.of(DeviceSpec.NATIVE), BenchPlan.ROUNDS, 0, List.of(Workload.DEFAULT_PARTITIONS), List.of());
    }

    Preset tasks(String tasks) {
        return new Preset(sizes, scale, tasks, warmups, iterations, noiseFloor, strategies, warmUp, devices, paired,
                budget, partitions, memoryLimits);
    }

    Preset waves(int warmups, int iterations) {
        return new Preset(sizes, scale, tasks, warmups, iterations, noiseFloor, strategies, warmUp, devices, paired,
                budget, partitions, memoryLimits);
    }

    Preset noiseFloor() {
        return new Preset(sizes, scale, tasks, warmups, iterations, true, strategies, warmUp, devices, paired, budget,
                partitions, memoryLimits);
    }

    Preset warmUp(String warmUp) {
        return new Preset(sizes, scale, tasks, warmups, iterations, noiseFloor, strategies, warmUp, devices, paired,
                budget, partitions, memoryLimits);
    }

    Preset devices(List<String> devices) {
        return new Preset(sizes, scale, tasks, warmups, iterations, noiseFloor, strategies, warmUp, devices, paired,
                budget, partitions, memoryLimits);
    }

    Preset paired(String paired) {
        return new Preset(sizes, scale, tasks, warmups, iterations, noiseFloor, strategies, warmUp, devices, paired,
                budget, partitions, memoryLimits);
    }

    Preset budget(long budget) {
        return new Preset(sizes, scale, tasks, warmups, iterations, noiseFloor, strategies, warmUp, devices, paired,
                budget, partitions, memoryLimits);
    }

    Preset partitions(List<String> partitions) {
        return new Preset(sizes, scale, tasks, warmups, iterations, noiseFloor, strategies, warmUp, devices, paired,
                budget, partitions, memoryLimits);
    }

    Preset memoryLimits(List<String> memoryLimits) {
        return new Preset(sizes, scale, tasks, warmups, iterations, noiseFloor, strategies, warmUp, devices, paired,
                budget, partitions, memoryLimits);
    }
}
