package dev.sluice.core.run;

import dev.sluice.core.device.TaskRate;
import dev.sluice.core.device.TaskRateCache;
import dev.sluice.core.strategy.ShuffleWriters;
import dev.sluice.spi.WriterConfig;
import dev.sluice.spi.storage.Cleanup;
import dev.sluice.spi.storage.CountedStorage;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * Sluice's harness measures its own map task rate: how fast one task of a run's workload produces map output with the
 * disk out of the way, so that a balance ({@link dev.sluice.core.device.DeviceProfile#balance}) can set the run's
 * device relative to it. As the seed's rate was taken (its baseline at Small, whose writes its dirty cache held): the
 * baseline strategy, {@code per-batch}, at the seed's Small with one batch per task ({@link Workload#atSmall}), the
 * run's tasks, scale, partitions, codec, producer and writer settings, on native storage (the directory the device
 * would be made in); {@value #WARMUPS} unmeasured wave, then {@value #MEASURED} measured, each from flushed dirty pages
 * and no outputs, each verified. The rate is committed bytes per task over the wave's seconds, the median of the
 * measured waves. Kept in a {@link TaskRateCache} under the machine, the harness's code and the configuration.
 */
public final class TaskRateCalibration {
    /** The strategy whose rate is measured: the seed's baseline. */
    public static final String STRATEGY = "per-batch";
    static final int WARMUPS = 1;
    static final int MEASURED = 3;

    private TaskRateCalibration() {}

    /**
     * The task rate of {@code workload} with {@code settings} (its output directory is set here), from {@code cache} if
     * it holds one for this machine, harness and configuration, else measured in a fresh directory under {@code base}
     * (removed after) and kept.
     */
    public static TaskRate find(Workload workload, WriterConfig.Builder settings, Path base, TaskRateCache cache,
                                PrintStream log) throws Exception {
        return cache.findOrMeasure(key(workload, settings, base), () -> measure(workload, settings, base, log), log,
                "sluice");
    }

    /** What a rate depends on: the machine, the harness's code, the configuration and the storage it ran on. */
    static Map<String, String> key(Workload workload, WriterConfig.Builder settings, Path base) throws IOException {
        Workload small = workload.atSmall();
        WriterConfig config = settings.outputDir(base).build();
        Map<String, String> key = new LinkedHashMap<>(TaskRateCache.machine());
        key.put("harness", "sluice " + STRATEGY + " waves (" + TaskRateCalibration.class.getName() + ")");
        key.put("harness.code", TaskRateCache.code(List.of(TaskRateCalibration.class,
                ShuffleWriters.find("calibration", STRATEGY).getClass())));
        key.put("run.tasks", String.valueOf(small.tasks));
        key.put("run.scale", String.valueOf(small.scale));
        key.put("run.input", small.inputSpec().size.label() + ", " + small.inputSpec().batches + " batch(es), rows "
                + small.inputSpec().rowsPerBatch + ", keys " + small.inputSpec().keys.label() + ", seed "
                + small.inputSpec().seed + ", columns " + small.inputSpec().schema);
        key.put("run.partitions", String.valueOf(small.partitions));
        key.put("run.partitioning", small.partitioning.label());
        key.put("run.codec", small.codec.label());
        key.put("run.producer", small.producer.toString());
        key.put("run.threads", String.valueOf(config.threads));
        key.put("run.memoryLimit", config.hasMemoryLimit() ? String.valueOf(config.memoryLimit) : "none");
        key.put("run.fsync", String.valueOf(config.fsync));
        key.put("run.storage", TaskRateCache.storage(base));
        return key;
    }

    /** Measures the rate as the class says; every wave's output is verified and removed. */
    public static TaskRate measure(Workload workload, WriterConfig.Builder settings, Path base, PrintStream log)
            throws Exception {
        Workload small = workload.atSmall();
        Files.createDirectories(base);
        Path dir = Files.createTempDirectory(base, "sluice-task-rate-");
        log.printf(Locale.ROOT, "sluice: measuring this harness's task rate: %s at %s x %s, %d task%s, %d batch%s "
                        + "each, producer %s, on native storage in %s (%d + %d waves)%n", STRATEGY,
                small.size.label(), plain(small.scale), small.tasks, small.tasks == 1 ? "" : "s",
                small.inputSpec().batches, small.inputSpec().batches == 1 ? "" : "es", small.producer, dir, WARMUPS,
                MEASURED);
        List<Double> rates = new ArrayList<>();
        long committedPerTask = 0;
        List<Long> millis = new ArrayList<>();
        try (BufferAllocator allocator = new RootAllocator();
             WaveInput input = WaveInput.prepare(small.inputSpec(), small.tasks, small.partitioning,
                     small.partitions, 0, allocator, (t, b) -> { });
             Trial trial = Trial.check("calibration", STRATEGY, settings, small, dir)) {
            trial.open(dir, new CountedStorage(), allocator);
            trial.startExecutor();
            DirtyPages dirty = DirtyPages.system();
            WaveVerification verification = new WaveVerification(null, null);
            try (Wave wave = new Wave(small.tasks, small.producer)) {
                for (int i = 0; i < WARMUPS + MEASURED; i++) {
                    if (dirty.available()) {
                        dirty.settle(Long.MAX_VALUE / 2, 0, 0); // flushed: each wave starts from the same state
                    }
                    WaveResult result = trial.runWave(wave, input, null);
                    try {
                        WaveVerification.Outcome outcome = verification.verify(result, trial, allocator);
                        if (!outcome.ok()) {
                            throw new IllegalStateException("the task-rate calibration wrote wrong bytes: "
                                    + outcome.failure);
                        }
                        if (i >= WARMUPS) {
                            committedPerTask = result.io.committedBytes / small.tasks;
                            millis.add(result.wallNanos / 1_000_000);
                            rates.add(result.io.committedBytes / (double) small.tasks / (result.wallNanos / 1e9));
                        }
                    } finally {
                        result.delete(trial.storage());
                    }
                }
            } finally {
                trial.stopExecutor();
            }
        } finally {
            Cleanup.deleteTree(dir);
        }
        double median = TaskRate.median(rates.stream().mapToDouble(Double::doubleValue).toArray());
        return new TaskRate(median, String.format(Locale.ROOT, "measured: %s at %s x %s, %d task%s, producer %s: "
                        + "%.1f MB committed per task, waves of %s ms, median %.1f MB/s per task", STRATEGY,
                small.size.label(), plain(small.scale), small.tasks, small.tasks == 1 ? "" : "s", small.producer,
                committedPerTask / 1e6, millis.stream().map(String::valueOf).collect(Collectors.joining(", ")),
                median / 1e6));
    }

    private static String plain(double scale) {
        return java.math.BigDecimal.valueOf(scale).stripTrailingZeros().toPlainString();
    }
}
