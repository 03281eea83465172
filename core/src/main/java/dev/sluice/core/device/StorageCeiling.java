package dev.sluice.core.device;

import dev.sluice.spi.Bytes;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What the storage under an emulated device delivers: the raw write of one copy through a fluid device's stack (its
 * loop devices, its queue and its file system over an image in the run's directory) with nothing limited, forced to
 * the image. A throttle can only slow a device, so a balance that asks its device for more than this is not the
 * balance a run gets (docs/balance.md, "Balances this machine can emulate"). Measured once per machine and storage,
 * {@value #ROUNDS} rounds of {@value #MIB} MiB, the median kept; kept in the {@link TaskRateCache} beside the task
 * rates, under the machine, the storage and this code.
 */
public final class StorageCeiling {
    static final int ROUNDS = 3;
    static final int MIB = 1024;

    private StorageCeiling() {}

    /** The ceiling kept for {@code base}'s storage in {@code cache}, else measured there and kept; says which. */
    public static TaskRate find(Path base, TaskRateCache cache, PrintStream log) throws IOException {
        Map<String, String> key = key(base);
        Optional<TaskRate> kept = cache.find(key);
        if (kept.isPresent()) {
            log.println("sluice: the storage under a device: " + text(kept.get()));
            return kept.get();
        }
        TaskRate measured = measure(base, log);
        cache.store(key, measured);
        log.println("sluice: the storage under a device: " + text(measured)
                + (cache.file() == null ? "" : "; kept in " + cache.file()));
        return measured;
    }

    /** The ceiling in words: its MB/s and how it was found. */
    public static String text(TaskRate ceiling) {
        return String.format(Locale.ROOT, "%.1f MB/s (%s)", ceiling.bytesPerSecond / 1e6, ceiling.how);
    }

    static Map<String, String> key(Path base) throws IOException {
        Map<String, String> key = new LinkedHashMap<>(TaskRateCache.machine());
        key.put("measure", "the storage under a device: the raw write of " + MIB + " MiB through a fluid device with "
                + "nothing limited, forced, median of " + ROUNDS);
        key.put("measure.code", TaskRateCache.code(List.of(StorageCeiling.class, EmulatedDevice.class,
                LoopDevices.class)));
        key.put("run.storage", TaskRateCache.storage(base));
        return key;
    }

    /** Makes the unlimited device in {@code base}, writes its rounds, tears it down. */
    static TaskRate measure(Path base, PrintStream log) throws IOException {
        long bytes = MIB * Bytes.MiB;
        log.printf(Locale.ROOT, "sluice: measuring the storage under a device: %d x %d MiB through a device with "
                + "nothing limited, in %s%n", ROUNDS, MIB, base);
        List<Double> rounds = new ArrayList<>();
        try (EmulatedDevice device = EmulatedDevice.unlimited(2 * bytes + RunDevice.SLACK, base, log)) {
            for (int i = 0; i < ROUNDS; i++) {
                rounds.add(device.measureRawWrite(bytes));
            }
        }
        double median = TaskRate.median(rounds.stream().mapToDouble(Double::doubleValue).toArray());
        return new TaskRate(median * 1e6, "measured: " + ROUNDS + " raw writes of " + MIB + " MiB, forced, through "
                + "a fluid device with nothing limited: " + rounds.stream().map(r -> String.format(Locale.ROOT,
                "%.1f", r)).collect(Collectors.joining(", ")) + " MB/s, median " + String.format(Locale.ROOT,
                "%.1f", median));
    }
}
