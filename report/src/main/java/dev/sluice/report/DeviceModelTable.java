package dev.sluice.report;

import dev.sluice.core.device.FluidDisk;
import dev.sluice.core.run.BenchmarkName;
import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.core.run.Metric;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The seed report's table of the emulated device against its model, a fluid disk, where the run has one. */
final class DeviceModelTable {
    private final SeedRun run;

    DeviceModelTable(SeedRun run) {
        this.run = run;
    }

    /** Whether any raw or paced write of the run was on an emulated device with the fluid model's time beside it. */
    boolean hasDeviceModel() {
        return run.rows.stream().anyMatch(DeviceModelTable::hasDeviceModel);
    }

    /** A raw or paced write with the fluid model's time beside its own. */
    private static boolean hasDeviceModel(JmhResults.Row r) {
        return r.is(BenchmarkName.RAW_WRITE) && r.metric(Metric.DEVICE_FLUID_MILLIS).isPresent();
    }

    /**
     * The emulated device against its physics: each raw and paced write's mean time beside what a fluid disk of the
     * device's rate and dirty cache takes for the same writes, and a warning where they part by more than 15%.
     */
    void write(PrintWriter out) {
        out.println("A fluid disk of the device's rate R and dirty cache D absorbs up to D bytes and drains them at R "
                + "from the first byte; a writer of S bytes made at r bytes per second finishes in max(S/r, (S - D)/R) "
                + "(several writers share R once the cache is full; `FluidDisk`). The raw write's threads are taken as "
                + "unbounded (below the cache the model then says 0: the disk holds nobody back), the paced write's at "
                + "their pace. Means ± 99.9% error, ms per wave:");
        out.println();
        out.println("| config | write | measured | fluid disk | measured / model |");
        out.println("|---|---|---|---|---|");
        List<String> departing = new ArrayList<>();
        for (JmhResults.Row r : run.rows) {
            if (!hasDeviceModel(r)) {
                continue;
            }
            double model = r.metric(Metric.DEVICE_FLUID_MILLIS).getAsDouble();
            String write = r.isPacedWrite() ? "paced at " + r.param(BenchmarkParam.PACE) + "/s a thread" : "raw";
            String ratio = model > 0 ? String.format(Locale.ROOT, "%.2f", r.score / model) : "model: nobody held back";
            out.printf(Locale.ROOT, "| %s | %s | %s | %.1f | %s |%n", r.param(BenchmarkParam.SIZE), write,
                    SeedTables.seconds(Figure.MAPPER, r), model, ratio);
            if (model > 0 && Math.abs(r.score / model - 1) > FluidDisk.WARN_DEPARTURE) {
                departing.add(String.format(Locale.ROOT, "%s %s (%.2f)", r.param(BenchmarkParam.SIZE), write,
                        r.score / model));
            }
        }
        out.println();
        if (!departing.isEmpty()) {
            out.println("**Warning:** measured departs from the model by more than 15% for " + String.join(", ",
                    departing) + ": until a trace shows otherwise, the emulation, not the writers, is what differs "
                    + "(`scripts/sluice device check SPEC --trace`).");
            out.println();
        }
    }
}
