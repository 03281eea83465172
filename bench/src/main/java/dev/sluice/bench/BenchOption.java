package dev.sluice.bench;

import java.util.Optional;

/**
 * The options of scripts/bench.sh, in the order its usage lists them: the plan's ({@link BenchPlan}) and the runner's
 * own ({@link RunnerOptions}). Every refusal names the option as the user typed it ({@link #flag}).
 */
enum BenchOption {
    PRESET("preset"),
    STRATEGIES("strategies"),
    SIZES("sizes"),
    SCALE("scale"),
    TASKS("tasks"),
    CODEC("codec"),
    SYNC("sync"),
    WARMUPS("warmups"),
    WARMUP_RECORDS("warmup-records"),
    ITERATIONS("iterations"),
    PAIRED("paired"),
    BUDGET("budget"),
    DEVICE("device"),
    PRODUCER("producer"),
    FLOORS("floors"),
    /** The partition axis: a configuration per count. */
    PARTITIONS("partitions"),
    /** The memory axis: a configuration per executor memory limit. */
    MEMORY_LIMIT("memory-limit"),
    /** The runner's: whether the clean page cache is dropped before every wave. */
    DROP_CACHES("drop-caches"),
    /** The runner's: whether each wave's memory is touched right before it. */
    PREFAULT("prefault"),
    /** The runner's: whether the references come from the reference cache where it has them. */
    REFERENCES("references"),
    /** The launcher's (the JDK that builds and runs), accepted by the runner and not used. */
    JDK("jdk"),
    /** The runner's: the run's directory. */
    OUT("out");

    private final String name;

    BenchOption(String name) {
        this.name = name;
    }

    /** The option as typed: {@code --name}. */
    String flag() {
        return "--" + name;
    }

    /** Its name without the dashes. */
    String optionName() {
        return name;
    }

    /** The option typed as {@code flag}; empty if none. */
    static Optional<BenchOption> of(String flag) {
        for (BenchOption o : values()) {
            if (o.flag().equals(flag)) {
                return Optional.of(o);
            }
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return flag();
    }
}
