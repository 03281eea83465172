package dev.sluice.bench;

import dev.sluice.bench.Plan.Configuration;
import dev.sluice.bench.Plan.Settings;
import dev.sluice.core.device.DeviceSpec;
import dev.sluice.core.input.DataSize;
import dev.sluice.core.run.BalanceFit;
import dev.sluice.core.run.WaveStorage;
import dev.sluice.core.run.Workload;
import dev.sluice.core.strategy.StrategySpec;
import dev.sluice.jmh.state.MemoryLimit;
import dev.sluice.spi.WriterConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The configurations of a plan, in the order they run: the machine's spread first where the preset measures it, then
 * device by device, partition count by partition count, memory limit by memory limit and size by size the strategies
 * (paired, or each alone), and for the first partition count and limit of a device the raw write, the floors and the
 * paced write (they write the same bytes whatever the partitions). A strategy that cannot run at a point of the
 * axes (more files open at once than this process may open, a memory limit it refuses) is left out of that point's
 * configuration, and the refusal said in the plan's header.
 */
final class PlanMatrix {
    private PlanMatrix() {}

    /**
     * The configurations; {@code refusals} gets a sentence for each strategy left out of a point, judged against
     * {@code maxOpenFiles}.
     */
    static List<Configuration> configurations(PlanChoices c, List<String> refusals, long maxOpenFiles) {
        Settings settings = new Settings(c.scale, c.tasks, c.codec, c.autoProducer ? BalanceFit.AUTO
                : c.producer.isNone() ? null : c.producer.toString(), c.warmUp, c.sync);
        List<Configuration> configurations = new ArrayList<>();
        // What is not paired (the machine's spread, the raw write) gets the iterations, or under a budget, where they
        // are a first chunk's rounds, five at least.
        int single = c.budget > 0 ? Math.max(5, c.iterations) : c.iterations;
        int others = c.off() ? c.iterations : single;
        int defaultPartitions = Integer.parseInt(Workload.DEFAULT_PARTITIONS);
        if (c.preset.noiseFloor) {
            // The same iterations of a constant job: the error no configuration can be expected to beat here.
            configurations.add(new Configuration(Configuration.Kind.NOISE_FLOOR, "noise-floor",
                    400L * (c.warmups + single), null, DeviceSpec.nativeDevice(), defaultPartitions, List.of(),
                    List.of(), c.warmups, single, null, settings));
        }
        List<String> limitPoints = c.memoryLimits.isEmpty() ? java.util.Collections.singletonList(null) : c.memoryLimits;
        for (DeviceSpec device : c.devices) {
            // A device's configurations are named after it: its spec without the characters a file name should not hold.
            String at = device.isNative() ? "" : "-" + device.text().replaceAll("[:=]", "_");
            for (int partitions : c.partitions) {
                for (String limit : limitPoints) {
                    String point = at + (partitions == defaultPartitions && c.partitions.size() == 1 ? ""
                            : "-p" + partitions) + (limit == null ? "" : "-m" + limit);
                    boolean firstPoint = partitions == c.partitions.get(0) && limit == limitPoints.get(0);
                    for (String size : c.sizes) {
                        Workload workload = Workload.planned(size, c.scale, c.tasks, String.valueOf(partitions),
                                c.codec);
                        List<String> strategies = new ArrayList<>();
                        List<String> limits = new ArrayList<>();
                        for (int i = 0; i < c.strategies.size(); i++) {
                            String strategyLimit = limit == null ? c.limits.get(i) : limit;
                            String refusal = refusal(c, c.strategies.get(i), workload, strategyLimit, maxOpenFiles);
                            if (refusal == null) {
                                strategies.add(c.strategies.get(i));
                                limits.add(strategyLimit);
                            } else {
                                refusals.add(String.format(Locale.ROOT, "Left out: %s at %s, %d partitions%s: %s",
                                        c.strategies.get(i), size, partitions,
                                        limit == null ? "" : ", memory limit " + limit, refusal));
                            }
                        }
                        add(configurations, c, settings, size, device, at, partitions, point, strategies, limits,
                                firstPoint, others);
                    }
                }
            }
        }
        return configurations;
    }

    /**
     * A point's configurations at {@code size}: its strategies (paired, or each alone), and at the device's first
     * point the raw write, floor and paced write, named {@code size + at} ({@code at}: the device's part of a name).
     */
    private static void add(List<Configuration> configurations, PlanChoices c, Settings settings, String size,
                            DeviceSpec device, String at, int partitions, String point, List<String> strategies,
                            List<String> limits, boolean firstPoint, int others) {
        long weight = DataSize.parse(BenchOption.SIZES.flag(), size).bytes() / 1_000_000 * (c.warmups + c.iterations);
        String first = null;
        if (!c.off() && strategies.size() > 1) {
            // One configuration for the size, run in chunks of rounds: a warm-up wave of each strategy per warm-up
            // and one wave of each per round.
            first = size + point;
            configurations.add(new Configuration(Configuration.Kind.PAIRED, first, weight * strategies.size(), size,
                    device, partitions, strategies, limits, c.warmups, c.iterations, null, settings));
        } else {
            for (int i = 0; i < strategies.size(); i++) {
                String name = size + point + "-" + strategies.get(i).replaceAll("[:=]", "_");
                first = first == null ? name : first;
                configurations.add(new Configuration(Configuration.Kind.SINGLE, name, weight, size, device,
                        partitions, List.of(strategies.get(i)), List.of(limits.get(i)), c.warmups, c.iterations,
                        null, settings));
            }
        }
        if (first == null || !firstPoint) {
            return;
        }
        // The raw write of as many bytes as the first strategy's data files held.
        configurations.add(new Configuration(Configuration.Kind.RAW_WRITE, size + at + "-raw", weight / 4, size, device,
                partitions, List.of(), List.of(), c.warmups, others, first, settings));
        if (c.floors && c.devices.indexOf(device) == 0) {
            // The CPU floors do no I/O, so one per size whatever the devices (recorded with the first, which it does
            // not use); planned like the raw write, with at least one warm-up iteration, so that the measured ones
            // run compiled code.
            configurations.add(new Configuration(Configuration.Kind.FLOOR, size + "-floor", weight / 4, size, device,
                    partitions, List.of(), List.of(), Math.max(1, c.warmups), others, null, settings));
        }
        if (c.floors) {
            // The raw write again, each thread paced at the bytes over the size's CPU floor (which has run by now,
            // with the first device): on a device whose writeback starts only at its dirty cap, the pace decides when
            // the device starts writing (docs/limits.md).
            configurations.add(new Configuration(Configuration.Kind.PACED_WRITE, size + at + "-paced", weight / 4, size,
                    device, partitions, List.of(), List.of(), c.warmups, others, first, settings));
        }
    }

    /**
     * Why {@code strategy} cannot run {@code workload} (a size at a partition count) with {@code limit}, or null: a
     * memory limit its {@code check} refuses, or more files open at once than {@code maxOpenFiles} allows.
     */
    static String refusal(PlanChoices c, String strategy, Workload workload, String limit, long maxOpenFiles) {
        StrategySpec spec = StrategySpec.parse(BenchOption.STRATEGIES.flag(), strategy);
        WriterConfig config = WriterConfig.builder().partitions(workload.partitions)
                .memoryLimit(MemoryLimit.parse(BenchOption.MEMORY_LIMIT.flag(), limit, c.machineMemory))
                .outputDir(Path.of(System.getProperty("java.io.tmpdir"))).build();
        String problem = spec.problem(config);
        if (problem != null) {
            return problem;
        }
        return WaveStorage.plan(spec, config, workload).refusal(config.outputDir, Long.MAX_VALUE, maxOpenFiles);
    }
}
