package dev.sluice.bench;

import dev.sluice.bench.Plan.Configuration;
import dev.sluice.bench.Plan.Settings;
import dev.sluice.core.device.DeviceSpec;
import dev.sluice.core.input.DataSize;
import dev.sluice.core.run.BalanceFit;
import dev.sluice.core.run.BenchmarkTerms;
import dev.sluice.core.run.Producer;
import dev.sluice.core.run.SeedScale;
import dev.sluice.core.run.Workload;
import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.core.strategy.Presets;
import dev.sluice.core.strategy.StrategySets;
import dev.sluice.core.strategy.StrategySpec;
import dev.sluice.report.PairedRun;
import dev.sluice.report.StoppingRule;
import dev.sluice.spi.InvalidParameterException;
import dev.sluice.spi.WriterConfig;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The benchmark matrix of {@code scripts/bench.sh}, decided here so that every name, size, codec and default comes from
 * the code the benchmarks run: a {@link Plan} of configurations, each run by the runner in forks of its own
 * ({@link BenchRunner}), with header lines that say what was chosen, each with where it came from (given, the
 * preset's, the default or this machine's processors). A bad option is refused with an
 * {@link InvalidParameterException} naming it; {@code java -cp
 * sluice-bench.jar:benchmarks.jar dev.sluice.bench.BenchPlan [options]}
 * prints the header lines, or the refusal with exit status 2.
 *
 * <p>The seed preset is the seed report's experiment on this machine: the seed's five sizes with its 1 to 5 batches
 * per map task, as many map tasks at once as this machine has processors (the seed ran 16 tasks on 16 writer
 * threads: one task per processor), at the seed-equivalent scale, 200 partitions, round robin, Spark's lz4, the
 * strategies at their upstream defaults plus {@code async:skipMerge=true} (with {@code memoryLimit=machine}: upstream's
 * skip-merge requires a limit, and the machine's memory, read in the fork, is written in the result as
 * {@code machine}, so that results of two machines compare), and the raw-write reference at each size; first, the machine's own spread
 * over the same iterations (NoiseFloorBenchmark). Every preset plans a floor configuration per size after its raw write
 * ({@code --floors false}: none): the wave's records serialized, and compressed by the run's codec, on every core,
 * without I/O (FloorBenchmark), the floor's CPU part; and, for each size and device, after it, the raw write again
 * with each thread paced at its bytes over that CPU part (the paced write); none for lz4-frame, which FloorBenchmark
 * refuses.
 */
public final class BenchPlan {
    /** Paired designs: the strategies of a size take turns wave by wave in one fork, or fork by fork; or unpaired. */
    public static final String ROUNDS = PairedRun.ROUNDS;
    public static final String FORKS = PairedRun.FORKS;
    public static final String OFF = "off";
    /** A strategy's memory limit where it needs none. */
    public static final String NO_LIMIT = "none";
    /** The seed preset's time budget: the whole preset, paired and stopped adaptively, in 30 minutes here. */
    static final long SEED_BUDGET = 30 * 60;
    static final String SEED_SIZES = "small,medium,large,xlarge,xxlarge";
    /** The most map tasks at once a preset takes from this machine's processors: the seed's 16. */
    static final int MAX_TASKS = 16;

    /** What a plan takes from the machine it is made on. */
    static final class Machine {
        final int processors;
        final long memoryTotal;

        Machine(int processors, long memoryTotal) {
            this.processors = processors;
            this.memoryTotal = memoryTotal;
        }

        static Machine current() {
            return new Machine(Runtime.getRuntime().availableProcessors(), SeedScale.memoryTotal());
        }
    }

    /** The crossover map's strategies: the baseline, both PRs and the best consolidation. */
    public static final List<String> BALANCE = List.of("per-batch", "buffered", "async", Presets.CONSOLIDATED_BEST);
    /**
     * The map's balances: the disk per task slot over the rate a slot's map task makes its output, around the seed's
     * (0.774, docs/balance.md): half of it, about it, and twice it, where a fluid disk says consolidation's gain
     * starts later and, from a balance of 2 (per-batch's second copy as fast as its first), never comes.
     */
    static final List<Double> BALANCE_RATIOS = List.of(0.4, 0.8, 1.6);
    /** The map's dirty page caches per task slot (GB, at full scale): a quarter of the seed's, and the seed's. */
    static final List<Double> BALANCE_DIRTY_GB = List.of(0.25, 1.0);
    /**
     * The rate a balance's {@code produce=} names (MiB/s): any, as a run sets its disk from its own task rate and only
     * the ratio of {@code write=} to it counts.
     */
    static final long BALANCE_PRODUCE_MIB = 100;
    /** The map's measured rounds per size and balance: five pairs give a 99% interval t's 4.6 (3 pairs: 9.9). */
    static final int BALANCE_ROUNDS = 5;
    /** The seed preset's scale on an emulated device, whose dirty cache is scaled with it. */
    static final String DEVICE_SCALE = "0.25";

    private BenchPlan() {}

    /** The balance preset's devices: every balance with every dirty cache, per slot, then native storage. */
    static List<String> balanceDevices() {
        List<String> devices = new ArrayList<>();
        for (double ratio : BALANCE_RATIOS) {
            for (double gb : BALANCE_DIRTY_GB) {
                devices.add(String.format(Locale.ROOT, "%s:write=%dm:dirty=%d:produce=%dm", DeviceSpec.PER_SLOT,
                        Math.round(ratio * BALANCE_PRODUCE_MIB), Math.round(gb * 1e9), BALANCE_PRODUCE_MIB));
            }
        }
        devices.add(DeviceSpec.NATIVE);
        return devices;
    }

    static Map<String, Preset> presets() {
        String perProcessor = null; // one task per processor, resolved on the machine the plan is made on
        Map<String, Preset> presets = new LinkedHashMap<>();
        String quarter = BenchmarkTerms.QUARTER;
        // Paired presets interleave a size's strategies wave by wave (PairedWaveBenchmark: docs/results.md measured
        // that design against alternating forks); seed adds rounds until every interval is within 5% or its share of
        // 30 minutes is spent.
        presets.put("smoke", new Preset(List.of("tiny"), "1", "1", 0, 2, false, StrategySets.PAIRED, quarter, ROUNDS,
                0));
        presets.put("quick", new Preset(List.of("small"), SeedScale.NAME, perProcessor, 1, 3, true, StrategySets.PAIRED,
                quarter, ROUNDS, 0));
        presets.put("seed", new Preset(Arrays.asList(SEED_SIZES.split(",")), SeedScale.NAME, perProcessor, 1,
                StoppingRule.FIRST_ROUNDS, true, StrategySets.PAIRED, quarter, ROUNDS, SEED_BUDGET));
        // The seed's batch bytes at scale 1 (small: one 400 MB batch per task, the shape the faithful buffered was
        // profiled at), so that ideal's memory (every record of every task at once) fits this machine at xxlarge.
        // Full warm-up waves, so that a pool is in its steady state; unpaired, as a pool must stay warm from wave to
        // wave, which a paired fork's one-wave executors do not give.
        presets.put("tuning", new Preset(List.of("small", "xxlarge"), "1", perProcessor, 1, 5, false, StrategySets.TUNING,
                BenchmarkTerms.FULL, OFF, 0));
        // The crossover map (docs/balance.md): small, large and xxlarge over three balances and two dirty caches per
        // slot on emulated devices, and native storage, at the seed's device scale (the dirty caches scaled alike).
        // Paired rounds, as the seed's experiment: the ratios the map draws are taken between waves of one round.
        presets.put("balance", new Preset(List.of("small", "large", "xxlarge"), DEVICE_SCALE, perProcessor, 1,
                BALANCE_ROUNDS, false, BALANCE, quarter, balanceDevices(), ROUNDS, 0));
        return presets;
    }

    /**
     * Prints the plan's header lines, or refuses a bad option with exit status 2 and a message naming it (what
     * scripts/profile.sh asks before it runs a fork).
     */
    public static void main(String[] args) {
        try {
            System.exit(run(Arrays.asList(args), System.out));
        } catch (InvalidParameterException e) {
            System.err.println("invalid " + e.parameter() + " '" + e.value() + "': allowed is " + e.allowed());
            System.exit(2);
        }
    }

    static int run(List<String> args, PrintStream out) {
        plan(args, Machine.current()).header.forEach(line -> out.println("# " + line));
        return 0;
    }

    /** "1 task", "2 tasks". */
    static String count(int n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }

    /** The plan of {@code args} ({@code --name value} pairs, as scripts/bench.sh takes them) on this machine. */
    public static Plan plan(List<String> args) {
        return plan(args, Machine.current());
    }

    static Plan plan(List<String> args, Machine machine) {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i < args.size(); i += 2) {
            if (!args.get(i).startsWith("--") || i + 1 >= args.size()) {
                throw new InvalidParameterException("argument", args.get(i), "--name value pairs");
            }
            options.put(args.get(i).substring(2), args.get(i + 1));
        }
        String presetName = options.getOrDefault("preset", "quick");
        Preset preset = presets().get(presetName);
        if (preset == null) {
            throw new InvalidParameterException("--preset", presetName, String.join(", ", presets().keySet()));
        }
        List<String> sizes = options.containsKey("sizes") ? Arrays.asList(options.get("sizes").split(",", -1))
                : preset.sizes;
        for (String size : sizes) {
            DataSize.parse("--sizes", size);
        }
        List<String> strategies = options.containsKey("strategies")
                ? Arrays.asList(options.get("strategies").split(",", -1)) : preset.strategies;
        for (String strategy : strategies) {
            StrategySpec.parse("--strategies", strategy);
        }
        String codec = options.getOrDefault("codec", Workload.DEFAULT_CODEC);
        ShuffleCodec.parse("--codec", codec);
        List<String> devices = options.containsKey("device") ? List.of(options.get("device")) : preset.devices;
        for (String device : devices) {
            DeviceSpec.parse("--device", device);
        }
        boolean emulated = devices.stream().anyMatch(d -> !DeviceSpec.parse("--device", d).isNative());
        // On an emulated device the dirty cache is the device's, scaled with the data; this machine's page cache
        // (what seed-equivalent answers) is out of the picture, so a smaller scale keeps the run's time reasonable.
        boolean deviceScale = emulated && !options.containsKey("scale") && SeedScale.NAME.equals(preset.scale);
        String scale = options.getOrDefault("scale", deviceScale ? DEVICE_SCALE : preset.scale);
        int perProcessor = Math.max(1, Math.min(MAX_TASKS, machine.processors));
        String tasks = options.getOrDefault("tasks", preset.tasks != null ? preset.tasks : String.valueOf(perProcessor));
        String tasksFrom = options.containsKey("tasks") ? "given" : preset.tasks != null ? "the preset's"
                : machine.processors > MAX_TASKS ? "one per processor, at most " + MAX_TASKS + ": this machine has "
                        + machine.processors + " processors"
                : "one per processor: this machine has " + count(machine.processors, "processor", "processors");
        String paired = options.getOrDefault("paired", preset.paired);
        String pairedFrom = from(options, "paired");
        if (!options.containsKey("paired") && !paired.equals(OFF) && strategies.size() < 2) {
            // A preset's pairing with one strategy given: nothing to pair it with, so each runs as it always did.
            paired = OFF;
            pairedFrom = "one strategy: nothing to pair";
        }
        if (!List.of(ROUNDS, FORKS, OFF).contains(paired)) {
            throw new InvalidParameterException("--paired", paired, ROUNDS + " (a size's strategies take turns wave by "
                    + "wave in one fork), " + FORKS + " (fork by fork) or " + OFF);
        }
        long budget = options.containsKey("budget") ? budget(options.get("budget"))
                : paired.equals(OFF) ? 0 : preset.budget;
        if (budget > 0 && paired.equals(OFF)) {
            throw new InvalidParameterException("--budget", options.getOrDefault("budget", String.valueOf(budget)),
                    "none with --paired off: a budget stops paired configurations once their intervals are narrow "
                    + "enough, which unpaired ones have not");
        }
        if (!paired.equals(OFF) && strategies.size() < 2) {
            throw new InvalidParameterException("--strategies", String.join(",", strategies), "two strategies or "
                    + "more to pair, the baseline first, or --paired off");
        }
        int warmups = count("--warmups", options.getOrDefault("warmups", String.valueOf(preset.warmups)), 0);
        // Paired under a budget, the iterations are the first chunk's rounds: two at least, for an interval.
        int iterations = count("--iterations", options.getOrDefault("iterations", String.valueOf(preset.iterations)),
                budget > 0 ? 2 : 1);
        String warmUp = options.getOrDefault("warmup-records", preset.warmUp);
        if (!warmUp.equals(BenchmarkTerms.QUARTER) && !warmUp.equals(BenchmarkTerms.FULL)) {
            throw new InvalidParameterException("--warmup-records", warmUp, BenchmarkTerms.QUARTER + " or "
                    + BenchmarkTerms.FULL);
        }
        String floorsOption = options.getOrDefault("floors", "true");
        if (!floorsOption.equals("true") && !floorsOption.equals("false")) {
            throw new InvalidParameterException("--floors", floorsOption, "true (a floor configuration per size: "
                    + "FloorBenchmark's serialize and compress, and a paced write per size and device) or false");
        }
        // lz4-frame compresses Arrow's buffers inside each record, not the serialized record: FloorBenchmark has no
        // compression floor for it and refuses it, so the plan has none rather than a configuration that fails.
        boolean floors = floorsOption.equals("true")
                && ShuffleCodec.parse("--codec", codec) != ShuffleCodec.LZ4_FRAME;
        String producerOption = options.getOrDefault("producer", BalanceFit.AUTO);
        boolean autoProducer = BalanceFit.AUTO.equals(producerOption);
        Producer producer = autoProducer ? Producer.NONE : Producer.parse("--producer", producerOption);
        String sync = options.getOrDefault("sync", "false");
        if (!sync.equals("true") && !sync.equals("false")) {
            throw new InvalidParameterException("--sync", sync, "true or false");
        }
        // Parses every size with the rest, so that a bad scale or task count is refused here, not in a fork.
        Workload any = null;
        for (String size : sizes) {
            any = Workload.planned(size, scale, tasks, codec);
        }
        int taskCount = any.tasks;
        List<String> header = new ArrayList<>();
        header.add(String.format(Locale.ROOT, "%s: %s %s (%s); %s at once (%s); scale %s (%s%s); %s %s (%s); codec %s "
                        + "(%s);%s %s%s (%s) and %s (%s) per configuration; %s %s (%s)",
                presetName, sizes.size() == 1 ? "size" : "sizes", String.join(",", sizes), from(options, "sizes"),
                count(taskCount, "task", "tasks"), tasksFrom, scale,
                deviceScale ? "on an emulated device, whose dirty cache is scaled with the data" : from(options, "scale"),
                SeedScale.NAME.equals(scale) ? ": " + any.scaleReason : "",
                strategies.size() == 1 ? "strategy" : "strategies", String.join(",", strategies),
                from(options, "strategies"), codec, options.containsKey("codec") ? "given" : "the default",
                sync.equals("true") ? " fsync at every commit (given);" : "",
                count(warmups, "warm-up wave", "warm-up waves"),
                warmups == 0 ? "" : warmUp.equals(BenchmarkTerms.FULL) ? " of the full records"
                        : " of a quarter of every record", from(options, "warmups"),
                paired.equals(OFF) ? count(iterations, "measured wave", "measured waves")
                        : count(iterations, "measured round", "measured rounds") + (budget > 0 ? " in the first chunk"
                        : ""), from(options, "iterations"),
                devices.size() == 1 ? "device" : "devices", String.join(",", devices),
                options.containsKey("device") ? "given" : preset.devices.size() > 1 ? "the preset's" : "the default"));
        if (autoProducer && devices.stream().anyMatch(d -> DeviceSpec.parse("--device", d).needsTaskRate())) {
            header.add(String.format(Locale.ROOT, "producer auto (%s): none, unless a device is a balance that would "
                    + "ask more than half of what the storage under it delivers, then a GPU producer slowing the tasks "
                    + "until it does not (the runner measures both once per machine and says what it chose)",
                    options.containsKey("producer") ? "given" : "the default"));
        } else if (!producer.isNone()) {
            header.add(String.format(Locale.ROOT, "producer %s (given): %s", producer, producer.describe()));
        }
        if (floorsOption.equals("true") && !floors) {
            header.add("no floors: " + codec + " compresses Arrow's buffers inside each record, not the serialized "
                    + "record, so FloorBenchmark has no compression floor for it");
        }
        String pairing = String.format(Locale.ROOT, "paired %s (%s): %s", paired, pairedFrom, paired.equals(OFF)
                ? "each strategy in forks of its own, one after the other"
                : (paired.equals(ROUNDS) ? "a size's strategies take turns wave by wave in one fork (PairedWaveBenchmark), "
                        + "each ratio taken between waves of the same round"
                        : "a size's strategies in alternating forks, each ratio taken between waves of the same "
                        + "iteration")
                + (budget > 0 ? String.format(Locale.ROOT, "; after every size's first chunk, chunks of rounds "
                        + "where they decide the most, until every comparison is decided or within 5%% of its ratio, "
                        + "or the %d s budget (%s) is spent",
                        budget, from(options, "budget")) : "; no budget: the rounds above, once"));
        header.add(pairing);
        Settings settings = new Settings(scale, tasks, codec, autoProducer ? BalanceFit.AUTO
                : producer.isNone() ? null : producer.toString(), warmUp,
                sync.equals("true"));
        List<Configuration> configurations = new ArrayList<>();
        // What is not paired (the machine's spread, the raw write) gets the iterations, or under a budget, where they
        // are a first chunk's rounds, five at least.
        int single = budget > 0 ? Math.max(5, iterations) : iterations;
        if (preset.noiseFloor) {
            // The same iterations of a constant job: the error no configuration can be expected to beat here.
            configurations.add(new Configuration(Configuration.Kind.NOISE_FLOOR, "noise-floor",
                    400L * (warmups + single), null, DeviceSpec.NATIVE, List.of(), List.of(), warmups, single, null,
                    settings));
        }
        List<String> limits = limits(strategies, codec, machine.memoryTotal);
        for (String device : devices) {
            // A device's configurations are named after it: its spec without the characters a file name should not hold.
            String at = DeviceSpec.NATIVE.equals(device) ? "" : "-" + device.replaceAll("[:=]", "_");
            for (String size : sizes) {
                long weight = DataSize.parse("size", size).bytes() / 1_000_000 * (warmups + iterations);
                String first;
                if (!paired.equals(OFF)) {
                    // One configuration for the size, run in chunks of rounds: a warm-up wave of each strategy per
                    // warm-up and one wave of each per round.
                    first = size + at;
                    configurations.add(new Configuration(Configuration.Kind.PAIRED, first, weight * strategies.size(),
                            size, device, strategies, limits, warmups, iterations, null, settings));
                } else {
                    first = null;
                    for (int i = 0; i < strategies.size(); i++) {
                        String name = size + at + "-" + strategies.get(i).replaceAll("[:=]", "_");
                        first = first == null ? name : first;
                        configurations.add(new Configuration(Configuration.Kind.SINGLE, name, weight, size, device,
                                List.of(strategies.get(i)), List.of(limits.get(i)), warmups, iterations, null,
                                settings));
                    }
                }
                // The raw write of as many bytes as the first strategy's data files held.
                configurations.add(new Configuration(Configuration.Kind.RAW_WRITE, size + at + "-raw", weight / 4,
                        size, device, List.of(), List.of(), warmups, paired.equals(OFF) ? iterations : single, first,
                        settings));
                if (floors && devices.indexOf(device) == 0) {
                    // The CPU floors do no I/O, so one per size whatever the devices (recorded with the first, which
                    // it does not use); planned like the raw write, with at least one warm-up iteration, so that the
                    // measured ones run compiled code.
                    configurations.add(new Configuration(Configuration.Kind.FLOOR, size + "-floor", weight / 4, size,
                            device, List.of(), List.of(), Math.max(1, warmups),
                            paired.equals(OFF) ? iterations : single, null, settings));
                }
                if (floors) {
                    // The raw write again, each thread paced at the bytes over the size's CPU floor (which has run by
                    // now, with the first device): on a device whose writeback starts only at its dirty cap, the
                    // pace decides when the device starts writing (docs/limits.md).
                    configurations.add(new Configuration(Configuration.Kind.PACED_WRITE, size + at + "-paced",
                            weight / 4, size, device, List.of(), List.of(), warmups,
                            paired.equals(OFF) ? iterations : single, first, settings));
                }
            }
        }
        return new Plan(presetName, header, paired, budget, configurations);
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
            StrategySpec spec = StrategySpec.parse("--strategies", strategy);
            WriterConfig unlimited = probe(codec, WriterConfig.UNLIMITED);
            if (spec.problem(unlimited) != null || !spec.warnings(unlimited).isEmpty()) {
                spec.check("--strategies", probe(codec, memoryLimit));
                limits.add(BenchmarkTerms.MACHINE);
            } else {
                limits.add(NO_LIMIT);
            }
        }
        return limits;
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
        throw new InvalidParameterException("--budget", text, "none, or a time > 0 in seconds, minutes or hours "
                + "(examples: 1800, 1800s, 30m, 1h)");
    }

    /** Where an option's value came from: given on the command line, else the preset's. */
    private static String from(Map<String, String> options, String name) {
        return options.containsKey(name) ? "given" : "the preset's";
    }

    /** A configuration to check a strategy spec against, before anything runs. */
    private static WriterConfig probe(String codec, long memoryLimit) {
        ShuffleCodec.parse("codec", codec);
        return WriterConfig.builder().memoryLimit(memoryLimit)
                .outputDir(Path.of(System.getProperty("java.io.tmpdir"))).build();
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
