package dev.sluice.bench;

import dev.sluice.core.device.DeviceSpec;
import dev.sluice.core.run.BenchmarkTerms;
import dev.sluice.core.run.SeedScale;
import dev.sluice.core.strategy.Presets;
import dev.sluice.core.strategy.StrategySets;
import dev.sluice.report.PairedRun;
import dev.sluice.report.StoppingRule;
import dev.sluice.spi.InvalidParameterException;
import java.io.PrintStream;
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
        /** Files this process may open (a plan leaves out a strategy that would need more). */
        final long maxOpenFiles;

        Machine(int processors, long memoryTotal) {
            this(processors, memoryTotal, Long.MAX_VALUE);
        }

        Machine(int processors, long memoryTotal, long maxOpenFiles) {
            this.processors = processors;
            this.memoryTotal = memoryTotal;
            this.maxOpenFiles = maxOpenFiles;
        }

        static Machine current() {
            return new Machine(Runtime.getRuntime().availableProcessors(), SeedScale.memoryTotal(),
                    dev.sluice.spi.StoragePlan.maxOpenFiles());
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
    /** The partitions preset's strategies: the baseline, Spark's two writers, both PRs, and the pipeline's limit. */
    static final List<String> PARTITIONS_STRATEGIES = List.of("per-batch", "bypass", "sort", "buffered", "async",
            "ideal");
    /** The partitions preset's counts: Comet's and Gluten's (apache/datafusion-comet #5568, apache/gluten #6475). */
    static final List<String> PARTITION_COUNTS = List.of("16", "200", "1000", "5000", "20000");
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
        Map<String, Preset> presets = new LinkedHashMap<>();
        // Paired presets interleave a size's strategies wave by wave (PairedWaveBenchmark: docs/results.md measured
        // that design against alternating forks); seed adds rounds until every interval is within 5% or its share of
        // 30 minutes is spent. A preset's tasks are one per processor of the machine the plan is made on unless named.
        presets.put("smoke", Preset.of(List.of("tiny"), "1", StrategySets.PAIRED).tasks("1").waves(0, 2));
        presets.put("quick", Preset.of(List.of("small"), SeedScale.NAME, StrategySets.PAIRED).noiseFloor());
        presets.put("seed", Preset.of(Arrays.asList(SEED_SIZES.split(",")), SeedScale.NAME, StrategySets.PAIRED)
                .waves(1, StoppingRule.FIRST_ROUNDS).noiseFloor().budget(SEED_BUDGET));
        // The seed's batch bytes at scale 1 (small: one 400 MB batch per task, the shape the faithful buffered was
        // profiled at), so that ideal's memory (every record of every task at once) fits this machine at xxlarge.
        // Full warm-up waves, so that a pool is in its steady state; unpaired, as a pool must stay warm from wave to
        // wave, which a paired fork's one-wave executors do not give.
        presets.put("tuning", Preset.of(List.of("small", "xxlarge"), "1", StrategySets.TUNING).waves(1, 5)
                .warmUp(BenchmarkTerms.FULL).paired(OFF));
        // The crossover map (docs/balance.md): small, large and xxlarge over three balances and two dirty caches per
        // slot on emulated devices, and native storage, at the seed's device scale (the dirty caches scaled alike).
        // Paired rounds, as the seed's experiment: the ratios the map draws are taken between waves of one round.
        // The partition axis (docs/partitions.md): where writers part ways as partitions grow, Spark's own writers
        // beside the RAPIDS ones, paired as the seed's; at the device scale, so that xxlarge at 20,000 partitions and
        // six strategies fit this machine's time.
        // Five rounds, as the balance map's: three pairs give a 99% interval t's 9.9, five its 4.6.
        presets.put("partitions", Preset.of(List.of("small", "xxlarge"), DEVICE_SCALE, PARTITIONS_STRATEGIES)
                .partitions(PARTITION_COUNTS).waves(1, BALANCE_ROUNDS));
        presets.put("balance", Preset.of(List.of("small", "large", "xxlarge"), DEVICE_SCALE, BALANCE)
                .waves(1, BALANCE_ROUNDS).devices(balanceDevices()));
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
        PlanChoices choices = PlanChoices.resolve(new PlanOptions(args), machine);
        List<String> refusals = new ArrayList<>();
        List<Plan.Configuration> configurations = PlanMatrix.configurations(choices, refusals, machine.maxOpenFiles);
        List<String> header = new ArrayList<>(PlanHeader.lines(choices));
        // The pairing's line stays last, as the runner prints it.
        header.addAll(header.size() - 1, refusals);
        return new Plan(choices.presetName, header, choices.paired, choices.budget, configurations);
    }
}
