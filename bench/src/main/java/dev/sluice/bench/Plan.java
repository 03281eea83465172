package dev.sluice.bench;

import dev.sluice.core.device.DeviceSpec;
import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.report.RunDirectory;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A benchmark matrix as {@link BenchPlan} decided it: header lines (what was chosen and why, for people), the paired
 * design, the time budget and the configurations in the order they run. It names no JMH argument: the runner
 * ({@link BenchRunner}) makes each configuration's JMH options from it.
 */
public final class Plan {
    /** The preset the plan started from. */
    public final String preset;
    /** What was chosen, each with where it came from, one sentence a line. */
    public final List<String> header;
    /** {@link BenchPlan#ROUNDS}, {@link BenchPlan#FORKS} or {@link BenchPlan#OFF}. */
    public final String design;
    /** The time budget of adaptive stopping in seconds, or 0 for none (each paired configuration's rounds, once). */
    public final long budget;
    public final List<Configuration> configurations;

    Plan(String preset, List<String> header, String design, long budget, List<Configuration> configurations) {
        this.preset = preset;
        this.header = List.copyOf(header);
        this.design = design;
        this.budget = budget;
        this.configurations = List.copyOf(configurations);
    }

    /**
     * The run directory of this plan in {@code dir}: its configurations named {@code NN-NAME} in its order, the paired
     * ones in its design.
     */
    public RunDirectory directory(Path dir) {
        List<RunDirectory.Config> named = new java.util.ArrayList<>();
        int i = 0;
        for (Configuration c : configurations) {
            i++;
            Map<String, String> params = new LinkedHashMap<>();
            params.put(BenchmarkParam.SIZE.key(), c.size == null ? "" : c.size);
            params.put(BenchmarkParam.DEVICE.key(), c.device.text());
            params.put(BenchmarkParam.SCALE.key(), c.settings.scale);
            params.put(BenchmarkParam.TASKS.key(), c.settings.tasks);
            params.put(BenchmarkParam.CODEC.key(), c.settings.codec);
            params.put(BenchmarkParam.PARTITIONS.key(), String.valueOf(c.partitions));
            named.add(new RunDirectory.Config(String.format(Locale.ROOT, "%02d-%s", i, c.name), c.name, c.weight,
                    c.paired() ? c.strategies : List.of(), c.iterations, params));
        }
        return new RunDirectory(dir, design, named);
    }

    /**
     * The plan with the producer {@code auto} ({@code dev.sluice.core.run.BalanceFit}) replaced, device by device, by
     * the one chosen for it ({@code chosen}: a device's spec to its producer, null for none), and {@code said} (what
     * was chosen and why) added to the header before its last line (the pairing's).
     */
    public Plan withProducers(java.util.Map<DeviceSpec, String> chosen, List<String> said) {
        List<Configuration> resolved = new java.util.ArrayList<>();
        for (Configuration c : configurations) {
            Settings s = c.settings;
            if (s.producer == null || !s.producer.equals(dev.sluice.core.run.BalanceFit.AUTO)) {
                resolved.add(c);
                continue;
            }
            Settings chosenSettings = new Settings(s.scale, s.tasks, s.codec, chosen.get(c.device), s.warmUp, s.sync);
            resolved.add(new Configuration(c.kind, c.name, c.weight, c.size, c.device, c.partitions, c.strategies,
                    c.memoryLimits, c.warmups, c.iterations, c.rawOf, chosenSettings));
        }
        List<String> lines = new java.util.ArrayList<>(header);
        lines.addAll(Math.max(0, lines.size() - 1), said); // the pairing's line stays last, as the runner prints it
        return new Plan(preset, lines, design, budget, resolved);
    }

    /** What every configuration of a plan shares. */
    public static final class Settings {
        public final String scale;
        public final String tasks;
        public final String codec;
        /** What makes each batch before it is written; null for none. */
        public final String producer;
        /** What warm-up waves write: {@code quarter} or {@code full}. */
        public final String warmUp;
        /** Whether every commit forces its files to the device. */
        public final boolean sync;

        Settings(String scale, String tasks, String codec, String producer, String warmUp, boolean sync) {
            this.scale = scale;
            this.tasks = tasks;
            this.codec = codec;
            this.producer = producer;
            this.warmUp = warmUp;
            this.sync = sync;
        }
    }

    /** One configuration: what runs, at which size on which device, with how many waves. */
    public static final class Configuration {
        /** What a configuration measures. */
        public enum Kind {
            /** The machine's own spread: the same constant work every iteration. */
            NOISE_FLOOR,
            /** A size's strategies against each other, pair by pair, in chunks of rounds. */
            PAIRED,
            /** One strategy in a fork of its own. */
            SINGLE,
            /** The storage's reference: as many bytes as {@link #rawOf}'s first strategy committed, written in turn. */
            RAW_WRITE,
            /**
             * The CPU floors of a size, no I/O: every record of the wave serialized, and the serialized records
             * compressed by the run's codec, on every core (FloorBenchmark's two methods, a fork each).
             */
            FLOOR,
            /**
             * The raw write of {@link #rawOf}'s bytes made no faster than its size's {@link #FLOOR} makes them: each
             * thread paced at its file's bytes over serialize + compress (after the floor; one per size and device).
             */
            PACED_WRITE
        }

        public final Kind kind;
        /** The configuration's name ({@code tiny}, {@code small-raw}, {@code small-floor}, {@code noise-floor}). */
        public final String name;
        /** Its share of the run's time, relative to the others'. */
        public final long weight;
        /** The data size; null for the noise floor. */
        public final String size;
        /**
         * The device its files go to, parsed once by the plan; its fork gets {@link DeviceSpec#text} as the JMH
         * parameter {@code device} and parses it again there (a JMH parameter is a string).
         */
        public final DeviceSpec device;
        /** Reduce partitions of its map tasks. */
        public final int partitions;
        /** The strategies, the baseline first; one for {@link Kind#SINGLE}, none for the others. */
        public final List<String> strategies;
        /** Each strategy's memory limit ({@link BenchPlan#NO_LIMIT} or {@code machine}). */
        public final List<String> memoryLimits;
        /** Warm-up waves, per strategy where paired. */
        public final int warmups;
        /** Measured waves; paired, rounds of the first chunk (or of the only one, without a budget). */
        public final int iterations;
        /**
         * {@link Kind#RAW_WRITE} and {@link Kind#PACED_WRITE}: the configuration whose first strategy's data files'
         * size it writes.
         */
        public final String rawOf;
        public final Settings settings;

        Configuration(Kind kind, String name, long weight, String size, DeviceSpec device, int partitions,
                      List<String> strategies, List<String> memoryLimits, int warmups, int iterations, String rawOf,
                      Settings settings) {
            this.kind = kind;
            this.name = name;
            this.weight = weight;
            this.size = size;
            this.device = device;
            this.partitions = partitions;
            this.strategies = List.copyOf(strategies);
            this.memoryLimits = List.copyOf(memoryLimits);
            this.warmups = warmups;
            this.iterations = iterations;
            this.rawOf = rawOf;
            this.settings = settings;
        }

        public boolean paired() {
            return kind == Kind.PAIRED;
        }

        /** Whether any strategy needs a memory limit (then each gets its own, {@link #memoryLimits}). */
        public boolean limited() {
            return memoryLimits.stream().anyMatch(l -> !l.equals(BenchPlan.NO_LIMIT));
        }
    }
}
