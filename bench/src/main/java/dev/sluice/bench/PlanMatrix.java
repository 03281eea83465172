package dev.sluice.bench;

import dev.sluice.bench.Plan.Configuration;
import dev.sluice.bench.Plan.Settings;
import dev.sluice.core.device.DeviceSpec;
import dev.sluice.core.input.DataSize;
import dev.sluice.core.run.BalanceFit;
import java.util.ArrayList;
import java.util.List;

/**
 * The configurations of a plan, in the order they run: the machine's spread first where the preset measures it, then
 * device by device and size by size the strategies (paired, or each alone), the raw write, the floors and the paced
 * write.
 */
final class PlanMatrix {
    private PlanMatrix() {}

    static List<Configuration> configurations(PlanChoices c) {
        Settings settings = new Settings(c.scale, c.tasks, c.codec, c.autoProducer ? BalanceFit.AUTO
                : c.producer.isNone() ? null : c.producer.toString(), c.warmUp, c.sync);
        List<Configuration> configurations = new ArrayList<>();
        // What is not paired (the machine's spread, the raw write) gets the iterations, or under a budget, where they
        // are a first chunk's rounds, five at least.
        int single = c.budget > 0 ? Math.max(5, c.iterations) : c.iterations;
        int others = c.off() ? c.iterations : single;
        if (c.preset.noiseFloor) {
            // The same iterations of a constant job: the error no configuration can be expected to beat here.
            configurations.add(new Configuration(Configuration.Kind.NOISE_FLOOR, "noise-floor",
                    400L * (c.warmups + single), null, DeviceSpec.nativeDevice(), List.of(), List.of(), c.warmups,
                    single, null, settings));
        }
        for (DeviceSpec device : c.devices) {
            // A device's configurations are named after it: its spec without the characters a file name should not hold.
            String at = device.isNative() ? "" : "-" + device.text().replaceAll("[:=]", "_");
            for (String size : c.sizes) {
                long weight = DataSize.parse(BenchOption.SIZES.flag(), size).bytes() / 1_000_000 * (c.warmups + c.iterations);
                String first;
                if (!c.off()) {
                    // One configuration for the size, run in chunks of rounds: a warm-up wave of each strategy per
                    // warm-up and one wave of each per round.
                    first = size + at;
                    configurations.add(new Configuration(Configuration.Kind.PAIRED, first,
                            weight * c.strategies.size(), size, device, c.strategies, c.limits, c.warmups,
                            c.iterations, null, settings));
                } else {
                    first = null;
                    for (int i = 0; i < c.strategies.size(); i++) {
                        String name = size + at + "-" + c.strategies.get(i).replaceAll("[:=]", "_");
                        first = first == null ? name : first;
                        configurations.add(new Configuration(Configuration.Kind.SINGLE, name, weight, size, device,
                                List.of(c.strategies.get(i)), List.of(c.limits.get(i)), c.warmups, c.iterations,
                                null, settings));
                    }
                }
                // The raw write of as many bytes as the first strategy's data files held.
                configurations.add(new Configuration(Configuration.Kind.RAW_WRITE, size + at + "-raw", weight / 4,
                        size, device, List.of(), List.of(), c.warmups, others, first, settings));
                if (c.floors && c.devices.indexOf(device) == 0) {
                    // The CPU floors do no I/O, so one per size whatever the devices (recorded with the first, which
                    // it does not use); planned like the raw write, with at least one warm-up iteration, so that the
                    // measured ones run compiled code.
                    configurations.add(new Configuration(Configuration.Kind.FLOOR, size + "-floor", weight / 4, size,
                            device, List.of(), List.of(), Math.max(1, c.warmups), others, null, settings));
                }
                if (c.floors) {
                    // The raw write again, each thread paced at the bytes over the size's CPU floor (which has run by
                    // now, with the first device): on a device whose writeback starts only at its dirty cap, the
                    // pace decides when the device starts writing (docs/limits.md).
                    configurations.add(new Configuration(Configuration.Kind.PACED_WRITE, size + at + "-paced",
                            weight / 4, size, device, List.of(), List.of(), c.warmups, others, first, settings));
                }
            }
        }
        return configurations;
    }
}
