package dev.sluice.bench;

import dev.sluice.bench.Plan.Configuration;
import dev.sluice.core.device.DeviceSpec;
import dev.sluice.core.device.TaskRateCache;
import dev.sluice.core.run.BalanceFit;
import dev.sluice.core.run.Workload;
import dev.sluice.jmh.state.TrialDirectory;
import dev.sluice.jmh.state.WriterSettings;
import dev.sluice.spi.WriterConfig;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The producer {@code auto} of a plan, chosen device by device before the run's first fork. */
final class ProducerChoices {
    private ProducerChoices() {}

    /**
     * The plan with the producer {@code auto} chosen for each device it names ({@link BalanceFit#resolve}: for a
     * balance, this harness's task rate at the size's workload without a producer and the storage under a device,
     * each measured here once per machine and kept in the task-rate cache); says each choice.
     */
    static Plan choose(Plan plan, PrintStream err, String script) throws Exception {
        Map<DeviceSpec, String> chosen = new java.util.LinkedHashMap<>();
        List<String> said = new ArrayList<>();
        for (Configuration c : plan.configurations) {
            Plan.Settings s = c.settings;
            if (s.producer == null || !s.producer.equals(BalanceFit.AUTO) || chosen.containsKey(c.device)) {
                continue;
            }
            DeviceSpec spec = c.device;
            if (!spec.needsTaskRate() || c.size == null) {
                chosen.put(c.device, null);
                continue;
            }
            Workload workload = Workload.planned(c.size, s.scale, s.tasks, s.codec);
            // The forks' settings (WriterSettings' defaults): the calibration is theirs, in this JVM.
            WriterConfig.Builder settings = WriterSettings.config(workload, WriterConfig.Builder.DEFAULT_THREADS,
                    BenchPlan.NO_LIMIT, s.sync);
            BalanceFit.Choice choice = BalanceFit.resolve(spec, workload, settings, TrialDirectory.base(),
                    TaskRateCache.standard(), err);
            chosen.put(c.device, choice.producer.isNone() ? null : choice.producer.toString());
            String line = "producer on " + c.device + ": " + choice;
            said.add(line);
            err.println(script + ": " + line);
        }
        return chosen.isEmpty() ? plan : plan.withProducers(chosen, said);
    }

}
