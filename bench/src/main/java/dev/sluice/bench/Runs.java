package dev.sluice.bench;

import dev.sluice.bench.Plan.Configuration;
import dev.sluice.bench.Plan.Settings;
import dev.sluice.core.run.BalanceFit;
import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.core.run.BenchmarkTerms;
import dev.sluice.jmh.noise.NoiseFloorBenchmark;
import dev.sluice.jmh.write.FloorBenchmark;
import dev.sluice.jmh.write.PairedWaveBenchmark;
import dev.sluice.jmh.write.RawWriteBenchmark;
import dev.sluice.jmh.write.ShuffleWriteBenchmark;
import dev.sluice.report.RunDirectory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The JMH runs of a plan's configurations: their benchmark, parameters and waves. */
final class Runs {
    private Runs() {}

    /** The same iterations of a constant job: the error no configuration can be expected to beat here. */
    static JmhRun noiseFloor(Configuration c, String file) {
        return new JmhRun(file, NoiseFloorBenchmark.class, c.warmups, c.iterations)
                .param(BenchmarkParam.TASKS, c.settings.tasks);
    }

    /** One strategy in a fork of its own; a memory limit where it needs one. */
    static JmhRun single(Configuration c, String file) {
        JmhRun run = partitions(common(new JmhRun(file, ShuffleWriteBenchmark.class, c.warmups, c.iterations)
                .param(BenchmarkParam.STRATEGY, c.strategies.get(0)), c), c);
        if (c.limited()) {
            run.param(BenchmarkParam.MEMORY_LIMIT, c.memoryLimits.get(0));
        }
        return run;
    }

    /** The raw write of {@code fileBytes}, as many as the size's first strategy's data files held. */
    static JmhRun raw(Configuration c, String file, long fileBytes) {
        return raw(c, file, String.valueOf(fileBytes));
    }

    /**
     * The paced write: the raw write of {@code fileBytes}, each thread writing no faster than {@code pace} (bytes per
     * second, or where it will come from).
     */
    static JmhRun paced(Configuration c, String file, String fileBytes, String pace) {
        return common(rawWrite(c, file, fileBytes).param(BenchmarkParam.PACE, pace), c);
    }

    private static JmhRun raw(Configuration c, String file, String fileBytes) {
        return common(rawWrite(c, file, fileBytes), c);
    }

    private static JmhRun rawWrite(Configuration c, String file, String fileBytes) {
        return new JmhRun(file, RawWriteBenchmark.class, c.warmups, c.iterations).param(BenchmarkParam.FILE_BYTES, fileBytes);
    }

    /**
     * The CPU floors of a size: FloorBenchmark's serialize and compress, a fork each, on the size's records with the
     * run's codec. No device, producer, warm-up records or sync: the floors do no I/O and make no batch.
     */
    static JmhRun floor(Configuration c, String file) {
        Settings s = c.settings;
        return new JmhRun(file, FloorBenchmark.class, c.warmups, c.iterations).param(BenchmarkParam.SIZE, c.size)
                .param(BenchmarkParam.SCALE, s.scale).param(BenchmarkParam.TASKS, s.tasks).param(BenchmarkParam.CODEC, s.codec);
    }

    /**
     * A configuration's first JMH runs, as plan.txt records them: a paired one's first chunk of the plan's rounds; the
     * raw write's bytes, not known before its size has run, as where they will come from.
     */
    static List<JmhRun> planned(Configuration c, String design, String run) {
        switch (c.kind) {
            case NOISE_FLOOR:
                return List.of(noiseFloor(c, run));
            case SINGLE:
                return List.of(single(c, run));
            case PAIRED:
                return chunk(c, design, run, 1, c.iterations);
            case FLOOR:
                return List.of(floor(c, run));
            case PACED_WRITE:
                return List.of(paced(c, run, "(" + c.rawOf + "'s " + References.DATA_BYTES_PER_TASK + ")",
                        "(those bytes over " + c.size + "-floor's serialize + compress)"));
            default:
                return List.of(raw(c, run, "(" + c.rawOf + "'s " + References.DATA_BYTES_PER_TASK + ")"));
        }
    }

    /**
     * Chunk {@code chunk} of paired configuration {@code c} (run name {@code run}), of {@code rounds} rounds: in the
     * {@value BenchPlan#ROUNDS} design one fork of PairedWaveBenchmark whose warm-up waves and waves take turns
     * (a multiple of the strategies' count); in the {@value BenchPlan#FORKS} design one ShuffleWriteBenchmark fork
     * per strategy with the same warm-up waves and as many waves as the chunk has rounds, in turn, each chunk
     * starting one strategy further on.
     */
    static List<JmhRun> chunk(Configuration c, String design, String run, int chunk, int rounds) {
        int k = c.strategies.size();
        String file = run + "-c" + chunk;
        if (design.equals(BenchPlan.ROUNDS)) {
            JmhRun paired = new JmhRun(file, PairedWaveBenchmark.class, c.warmups * k, rounds * k)
                    .param(BenchmarkParam.STRATEGIES, String.join(BenchmarkTerms.LIST, c.strategies));
            if (c.limited()) {
                paired.param(BenchmarkParam.MEMORY_LIMIT, String.join(BenchmarkTerms.LIST, c.memoryLimits));
            }
            return List.of(partitions(common(paired, c), c));
        }
        List<JmhRun> forks = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            int s = (i + chunk - 1) % k;
            JmhRun fork = new JmhRun(file + "-s" + s, ShuffleWriteBenchmark.class, c.warmups, rounds)
                    .param(BenchmarkParam.STRATEGY, c.strategies.get(s));
            if (c.limited()) {
                fork.param(BenchmarkParam.MEMORY_LIMIT, c.memoryLimits.get(s));
            }
            forks.add(partitions(common(fork, c), c));
        }
        return forks;
    }

    /** A strategy's waves at the configuration's partition count (the raw write and floors have none). */
    private static JmhRun partitions(JmhRun run, Configuration c) {
        if (c.partitions != Integer.parseInt(dev.sluice.core.run.Workload.DEFAULT_PARTITIONS)) {
            run.param(BenchmarkParam.PARTITIONS, String.valueOf(c.partitions));
        }
        return run;
    }

    /** What every write and raw write of a configuration is given: its size, device and the plan's settings. */
    private static JmhRun common(JmhRun run, Configuration c) {
        Settings s = c.settings;
        run.param(BenchmarkParam.SIZE, c.size).param(BenchmarkParam.SCALE, s.scale).param(BenchmarkParam.TASKS, s.tasks)
                .param(BenchmarkParam.CODEC, s.codec);
        if (!c.device.isNative()) {
            run.param(BenchmarkParam.DEVICE, c.device.text());
        }
        if (BalanceFit.AUTO.equals(s.producer)) {
            // BenchRunner chooses it per device first (Plan.withProducers); on native storage it is none.
            if (!c.device.isNative()) {
                throw new IllegalStateException("the producer auto of " + c.name + " on " + c.device
                        + " was not chosen before its runs were made");
            }
        } else if (s.producer != null) {
            run.param(BenchmarkParam.PRODUCER, s.producer);
        }
        if (s.warmUp.equals(BenchmarkTerms.FULL)) {
            run.param(BenchmarkParam.WARM_UP, s.warmUp);
        }
        if (s.sync) {
            // Every commit forces its files to the device, and so does the raw write: the disk in every wave.
            run.param(BenchmarkParam.SYNC, "true");
        }
        return run;
    }

    /** plan.txt: the header lines, then each configuration's name, weight and first JMH runs, as JMH would say them. */
    static void writePlan(Path out, Plan plan, List<RunDirectory.Config> named) throws IOException {
        List<String> lines = new ArrayList<>();
        plan.header.forEach(h -> lines.add("# " + h));
        for (int i = 0; i < plan.configurations.size(); i++) {
            Configuration c = plan.configurations.get(i);
            List<String> described = new ArrayList<>();
            Runs.planned(c, plan.design, named.get(i).run).forEach(r -> described.add(r.describe()));
            lines.add(c.name + "|" + c.weight + "|" + String.join("; ", described));
        }
        Files.write(out.resolve("plan.txt"), lines, StandardCharsets.UTF_8);
    }
}
