package dev.sluice.bench;

import dev.sluice.core.device.DeviceSpec;
import java.util.List;

/** One preset's choices ({@link BenchPlan#presets}), which the options of scripts/bench.sh override. */
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

    Preset(List<String> sizes, String scale, String tasks, int warmups, int iterations, boolean noiseFloor,
           List<String> strategies, String warmUp, String paired, long budget) {
        this(sizes, scale, tasks, warmups, iterations, noiseFloor, strategies, warmUp,
                List.of(DeviceSpec.NATIVE), paired, budget);
    }

    Preset(List<String> sizes, String scale, String tasks, int warmups, int iterations, boolean noiseFloor,
           List<String> strategies, String warmUp, List<String> devices, String paired, long budget) {
        this.sizes = sizes;
        this.scale = scale;
        this.tasks = tasks;
        this.warmups = warmups;
        this.iterations = iterations;
        this.noiseFloor = noiseFloor;
        this.strategies = strategies;
        this.warmUp = warmUp;
        this.devices = devices;
        this.paired = paired;
        this.budget = budget;
    }
}
