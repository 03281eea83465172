package dev.sluice.bench;

import dev.sluice.core.device.DeviceSpec;
import dev.sluice.core.input.DataSize;
import dev.sluice.core.run.BalanceFit;
import dev.sluice.core.run.BenchmarkTerms;
import dev.sluice.core.run.Producer;
import dev.sluice.core.run.SeedScale;
import dev.sluice.core.run.Workload;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.strategy.StrategySpec;
import dev.sluice.spi.InvalidParameterException;
import dev.sluice.spi.WriterConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A plan's choices: each option of scripts/bench.sh over its preset's value, every one checked here, before the
 * matrix is made and before anything runs, and refused with an {@link InvalidParameterException} naming it.
 */
final class PlanChoices {
    final PlanOptions options;
    final String presetName;
    final Preset preset;
    final List<String> sizes;
    final List<String> strategies;
    /** Each strategy's memory limit ({@link BenchPlan#NO_LIMIT} or {@code machine}). */
    final List<String> limits;
    /** The reduce partition counts, a configuration each (the partition axis). */
    final List<Integer> partitions;
    /**
     * The executor memory limits, a configuration each, given to every strategy (the memory axis); empty: each
     * strategy's own ({@link #limits}).
     */
    final List<String> memoryLimits;
    final String codec;
    /** The devices, each parsed once here and carried typed into the plan. */
    final List<DeviceSpec> devices;
    /** Whether the scale is the device scale: on an emulated device, a preset's seed-equivalent scale is not used. */
    final boolean deviceScale;
    final String scale;
    final String tasks;
    /** Where the task count came from, in words. */
    final String tasksFrom;
    /** A planned workload of the last size: the task count, and the seed-equivalent scale's reason. */
    final Workload any;
    final String paired;
    final String pairedFrom;
    final long budget;
    final int warmups;
    final int iterations;
    final String warmUp;
    /** Whether floors were asked for, and whether the plan has them (none for lz4-frame). */
    final boolean floorsAsked;
    final boolean floors;
    final boolean autoProducer;
    final Producer producer;
    final boolean sync;
    /** The machine's memory, what a memory limit of {@code machine} is. */
    final long machineMemory;

    private PlanChoices(PlanOptions options, BenchPlan.Machine machine) {
        this.options = options;
        this.machineMemory = machine.memoryTotal;
        presetName = options.get(BenchOption.PRESET, "quick");
        Map<String, Preset> presets = BenchPlan.presets();
        preset = presets.get(presetName);
        if (preset == null) {
            throw new InvalidParameterException(BenchOption.PRESET.flag(), presetName, String.join(", ", presets.keySet()));
        }
        sizes = options.has(BenchOption.SIZES) ? Arrays.asList(options.get(BenchOption.SIZES, "").split(",", -1)) : preset.sizes;
        for (String size : sizes) {
            DataSize.parse(BenchOption.SIZES.flag(), size);
        }
        strategies = options.has(BenchOption.STRATEGIES) ? Arrays.asList(options.get(BenchOption.STRATEGIES, "").split(",", -1))
                : preset.strategies;
        for (String strategy : strategies) {
            StrategySpec.parse(BenchOption.STRATEGIES.flag(), strategy);
        }
        codec = options.get(BenchOption.CODEC, Workload.DEFAULT_CODEC);
        ShuffleCodec parsedCodec = ShuffleCodec.parse(BenchOption.CODEC.flag(), codec);
        List<DeviceSpec> parsed = new ArrayList<>();
        for (String device : options.has(BenchOption.DEVICE) ? List.of(options.get(BenchOption.DEVICE, "")) : preset.devices) {
            parsed.add(DeviceSpec.parse(BenchOption.DEVICE.flag(), device));
        }
        devices = List.copyOf(parsed);
        // On an emulated device the dirty cache is the device's, scaled with the data; this machine's page cache
        // (what seed-equivalent answers) is out of the picture, so a smaller scale keeps the run's time reasonable.
        deviceScale = devices.stream().anyMatch(d -> !d.isNative()) && !options.has(BenchOption.SCALE)
                && SeedScale.NAME.equals(preset.scale);
        scale = options.get(BenchOption.SCALE, deviceScale ? BenchPlan.DEVICE_SCALE : preset.scale);
        int perProcessor = Math.max(1, Math.min(BenchPlan.MAX_TASKS, machine.processors));
        tasks = options.get(BenchOption.TASKS, preset.tasks != null ? preset.tasks : String.valueOf(perProcessor));
        tasksFrom = options.has(BenchOption.TASKS) ? "given" : preset.tasks != null ? "the preset's"
                : machine.processors > BenchPlan.MAX_TASKS ? "one per processor, at most " + BenchPlan.MAX_TASKS
                        + ": this machine has " + machine.processors + " processors"
                : "one per processor: this machine has " + BenchPlan.count(machine.processors, "processor",
                        "processors");
        String design = options.get(BenchOption.PAIRED, preset.paired);
        String designFrom = options.from(BenchOption.PAIRED);
        if (!options.has(BenchOption.PAIRED) && !design.equals(BenchPlan.OFF) && strategies.size() < 2) {
            // A preset's pairing with one strategy given: nothing to pair it with, so each runs as it always did.
            design = BenchPlan.OFF;
            designFrom = "one strategy: nothing to pair";
        }
        paired = design;
        pairedFrom = designFrom;
        if (!List.of(BenchPlan.ROUNDS, BenchPlan.FORKS, BenchPlan.OFF).contains(paired)) {
            throw new InvalidParameterException(BenchOption.PAIRED.flag(), paired, BenchPlan.ROUNDS + " (a size's strategies take "
                    + "turns wave by wave in one fork), " + BenchPlan.FORKS + " (fork by fork) or " + BenchPlan.OFF);
        }
        budget = options.has(BenchOption.BUDGET) ? budget(options.get(BenchOption.BUDGET, "")) : off() ? 0 : preset.budget;
        if (budget > 0 && off()) {
            throw new InvalidParameterException(BenchOption.BUDGET.flag(), options.get(BenchOption.BUDGET, String.valueOf(budget)),
                    "none with --paired off: a budget stops paired configurations once their intervals are narrow "
                    + "enough, which unpaired ones have not");
        }
        if (!off() && strategies.size() < 2) {
            throw new InvalidParameterException(BenchOption.STRATEGIES.flag(), String.join(",", strategies), "two strategies or "
                    + "more to pair, the baseline first, or --paired off");
        }
        warmups = count(BenchOption.WARMUPS.flag(), options.get(BenchOption.WARMUPS, String.valueOf(preset.warmups)), 0);
        // Paired under a budget, the iterations are the first chunk's rounds: two at least, for an interval.
        iterations = count(BenchOption.ITERATIONS.flag(), options.get(BenchOption.ITERATIONS, String.valueOf(preset.iterations)),
                budget > 0 ? 2 : 1);
        warmUp = options.get(BenchOption.WARMUP_RECORDS, preset.warmUp);
        if (!warmUp.equals(BenchmarkTerms.QUARTER) && !warmUp.equals(BenchmarkTerms.FULL)) {
            throw new InvalidParameterException(BenchOption.WARMUP_RECORDS.flag(), warmUp, BenchmarkTerms.QUARTER + " or "
                    + BenchmarkTerms.FULL);
        }
        String floorsOption = options.get(BenchOption.FLOORS, "true");
        if (!floorsOption.equals("true") && !floorsOption.equals("false")) {
            throw new InvalidParameterException(BenchOption.FLOORS.flag(), floorsOption, "true (a floor configuration per size: "
                    + "FloorBenchmark's serialize and compress, and a paced write per size and device) or false");
        }
        floorsAsked = floorsOption.equals("true");
        // lz4-frame compresses Arrow's buffers inside each record, not the serialized record: FloorBenchmark has no
        // compression floor for it and refuses it, so the plan has none rather than a configuration that fails.
        floors = floorsAsked && parsedCodec != ShuffleCodec.LZ4_FRAME;
        String producerOption = options.get(BenchOption.PRODUCER, BalanceFit.AUTO);
        autoProducer = BalanceFit.AUTO.equals(producerOption);
        producer = autoProducer ? Producer.NONE : Producer.parse(BenchOption.PRODUCER.flag(), producerOption);
        String syncOption = options.get(BenchOption.SYNC, "false");
        if (!syncOption.equals("true") && !syncOption.equals("false")) {
            throw new InvalidParameterException(BenchOption.SYNC.flag(), syncOption, "true or false");
        }
        sync = syncOption.equals("true");
        // Parses every size with the rest, so that a bad scale or task count is refused here, not in a fork.
        Workload last = null;
        for (String size : sizes) {
            last = Workload.planned(size, scale, tasks, codec);
        }
        any = last;
        limits = limits(strategies, codec, machine.memoryTotal);
        List<Integer> counts = new ArrayList<>();
        for (String p : options.has(BenchOption.PARTITIONS)
                ? Arrays.asList(options.get(BenchOption.PARTITIONS, "").split(",", -1)) : preset.partitions) {
            int count = count(BenchOption.PARTITIONS.flag(), p.trim(), 1);
            if (counts.contains(count)) {
                throw new InvalidParameterException(BenchOption.PARTITIONS.flag(), options.get(BenchOption.PARTITIONS, p),
                        "a comma-separated list of distinct partition counts >= 1 (examples: 200, 16,200,1000)");
            }
            counts.add(count);
        }
        partitions = List.copyOf(counts);
        List<String> limitsAxis = new ArrayList<>();
        for (String l : options.has(BenchOption.MEMORY_LIMIT)
                ? Arrays.asList(options.get(BenchOption.MEMORY_LIMIT, "").split(",", -1)) : preset.memoryLimits) {
            // Parsed as the fork parses it, so that a bad limit is refused here.
            dev.sluice.jmh.state.MemoryLimit.parse(BenchOption.MEMORY_LIMIT.flag(), l.trim(), machine.memoryTotal);
            limitsAxis.add(l.trim());
        }
        memoryLimits = List.copyOf(limitsAxis);
    }

    /** The choices of {@code options} on {@code machine}, every one checked. */
    static PlanChoices resolve(PlanOptions options, BenchPlan.Machine machine) {
        return new PlanChoices(options, machine);
    }

    /** Whether the strategies run unpaired, each in forks of its own. */
    boolean off() {
        return paired.equals(BenchPlan.OFF);
    }

    /**
     * Each strategy's memory limit: {@value BenchmarkTerms#MACHINE} where upstream's skip-merge needs a host memory
     * limit (without one it merges, with a warning): the executor may use the machine's memory, read in the fork, so
     * that the result's parameter says "machine" on every machine; else none. Any other problem is refused here, not
     * in the fork.
     */
    private static List<String> limits(List<String> strategies, String codec, long memoryLimit) {
        List<String> limits = new ArrayList<>();
        for (String strategy : strategies) {
            StrategySpec spec = StrategySpec.parse(BenchOption.STRATEGIES.flag(), strategy);
            WriterConfig unlimited = probe(codec, WriterConfig.UNLIMITED);
            if (spec.problem(unlimited) != null || !spec.warnings(unlimited).isEmpty()) {
                spec.check(BenchOption.STRATEGIES.flag(), probe(codec, memoryLimit));
                limits.add(BenchmarkTerms.MACHINE);
            } else {
                limits.add(BenchPlan.NO_LIMIT);
            }
        }
        return limits;
    }

    /** A configuration to check a strategy spec against, before anything runs. */
    private static WriterConfig probe(String codec, long memoryLimit) {
        ShuffleCodec.parse(BenchOption.CODEC.flag(), codec);
        return WriterConfig.builder().memoryLimit(memoryLimit)
                .outputDir(Path.of(System.getProperty("java.io.tmpdir"))).build();
    }

    /** A time budget: {@code none}, or seconds with an optional unit ({@code 1800}, {@code 1800s}, {@code 30m}, {@code 1h}). */
    static long budget(String text) {
        if (text.equals("none")) {
            return 0;
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)([smh]?)").matcher(text);
        if (m.matches()) {
            long v = Long.parseLong(m.group(1));
            long seconds = m.group(2).equals("h") ? v * 3600 : m.group(2).equals("m") ? v * 60 : v;
            if (seconds > 0) {
                return seconds;
            }
        }
        throw new InvalidParameterException(BenchOption.BUDGET.flag(), text, "none, or a time > 0 in seconds, minutes or hours "
                + "(examples: 1800, 1800s, 30m, 1h)");
    }

    private static int count(String parameter, String text, int min) {
        try {
            int v = Integer.parseInt(text);
            if (v >= min) {
                return v;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new InvalidParameterException(parameter, text, "an integer >= " + min);
    }
}
