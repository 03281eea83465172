package dev.sluice.bench;

import dev.sluice.core.device.DeviceSpec;
import dev.sluice.core.run.BenchmarkTerms;
import dev.sluice.core.run.SeedScale;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The plan's header lines: what was chosen, each with where it came from, one sentence a line, for people. */
final class PlanHeader {
    private PlanHeader() {}

    static List<String> lines(PlanChoices c) {
        PlanOptions options = c.options;
        List<String> devices = c.devices.stream().map(DeviceSpec::text).toList();
        List<String> header = new ArrayList<>();
        header.add(String.format(Locale.ROOT, "%s: %s %s (%s); %s at once (%s); scale %s (%s%s); %s %s (%s); codec %s "
                        + "(%s);%s %s%s (%s) and %s (%s) per configuration; %s %s (%s)",
                c.presetName, c.sizes.size() == 1 ? "size" : "sizes", String.join(",", c.sizes),
                options.from(BenchOption.SIZES), BenchPlan.count(c.any.tasks, "task", "tasks"), c.tasksFrom, c.scale,
                c.deviceScale ? "on an emulated device, whose dirty cache is scaled with the data"
                        : options.from(BenchOption.SCALE),
                SeedScale.NAME.equals(c.scale) ? ": " + c.any.scaleReason : "",
                c.strategies.size() == 1 ? "strategy" : "strategies", String.join(",", c.strategies),
                options.from(BenchOption.STRATEGIES), c.codec, options.has(BenchOption.CODEC) ? "given" : "the default",
                c.sync ? " fsync at every commit (given);" : "",
                BenchPlan.count(c.warmups, "warm-up wave", "warm-up waves"),
                c.warmups == 0 ? "" : c.warmUp.equals(BenchmarkTerms.FULL) ? " of the full records"
                        : " of a quarter of every record", options.from(BenchOption.WARMUPS),
                c.off() ? BenchPlan.count(c.iterations, "measured wave", "measured waves")
                        : BenchPlan.count(c.iterations, "measured round", "measured rounds")
                        + (c.budget > 0 ? " in the first chunk" : ""), options.from(BenchOption.ITERATIONS),
                devices.size() == 1 ? "device" : "devices", String.join(",", devices),
                options.has(BenchOption.DEVICE) ? "given" : c.preset.devices.size() > 1 ? "the preset's" : "the default"));
        if (c.autoProducer && c.devices.stream().anyMatch(DeviceSpec::needsTaskRate)) {
            header.add(String.format(Locale.ROOT, "producer auto (%s): none, unless a device is a balance that would "
                    + "ask more than half of what the storage under it delivers, then a GPU producer slowing the tasks "
                    + "until it does not (the runner measures both once per machine and says what it chose)",
                    options.has(BenchOption.PRODUCER) ? "given" : "the default"));
        } else if (!c.producer.isNone()) {
            header.add(String.format(Locale.ROOT, "producer %s (given): %s", c.producer, c.producer.describe()));
        }
        if (c.floorsAsked && !c.floors) {
            header.add("no floors: " + c.codec + " compresses Arrow's buffers inside each record, not the serialized "
                    + "record, so FloorBenchmark has no compression floor for it");
        }
        header.add(String.format(Locale.ROOT, "paired %s (%s): %s", c.paired, c.pairedFrom, c.off()
                ? "each strategy in forks of its own, one after the other"
                : (c.paired.equals(BenchPlan.ROUNDS) ? "a size's strategies take turns wave by wave in one fork "
                        + "(PairedWaveBenchmark), each ratio taken between waves of the same round"
                        : "a size's strategies in alternating forks, each ratio taken between waves of the same "
                        + "iteration")
                + (c.budget > 0 ? String.format(Locale.ROOT, "; after every size's first chunk, chunks of rounds "
                        + "where they decide the most, until every comparison is decided or within 5%% of its ratio, "
                        + "or the %d s budget (%s) is spent", c.budget, options.from(BenchOption.BUDGET))
                        : "; no budget: the rounds above, once")));
        return header;
    }
}
