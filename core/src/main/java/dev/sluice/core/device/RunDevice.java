package dev.sluice.core.device;

import dev.sluice.spi.Bytes;
import dev.sluice.spi.InvalidParameterException;
import dev.sluice.spi.TaskShape;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The storage a run writes to, for the command line, the benchmarks' forks and spark-bench alike: the directory as
 * given ({@code native}), or a directory on an {@link EmulatedDevice} made for the run in it, which closing tears
 * down. One set-up for all three: {@link #plan} checks the spec against what the run will keep on it before any file
 * is made ({@link #plannedBytes}, one definition), then {@link Planned#open} measures the run's task rate where the
 * spec is a balance, makes the device and measures its raw write.
 */
public final class RunDevice implements AutoCloseable {
    /**
     * What Sluice's strategies keep of a map output at once, at most: its partial or spill files and the merged file
     * (per-batch's partition files and their concatenation; buffered's and async's partials and their merge).
     */
    public static final int STRATEGY_COPIES = 2;
    /** An emulated device gets this much room beyond what the run plans to keep on it (ext4's metadata, slack). */
    static final long SLACK = 512 * Bytes.MiB;

    private final DeviceSpec spec;
    private final Path directory;
    private final EmulatedDevice device;

    private RunDevice(DeviceSpec spec, Path directory, EmulatedDevice device) {
        this.spec = spec;
        this.directory = directory;
        this.device = device;
    }

    /**
     * The bytes a run plans to keep on its storage at once, the one definition every harness uses: {@code tasks} map
     * outputs of {@code outputBytesPerTask} each, {@code copies} of each (what its writers keep at once).
     */
    public static long plannedBytes(int tasks, long outputBytesPerTask, int copies) {
        return (long) tasks * outputBytesPerTask * copies;
    }

    /**
     * A run of Sluice's strategies on {@code shape}: every task's records serialized ({@link TaskShape#serializedBytes},
     * an upper bound), {@link #STRATEGY_COPIES} of them, whichever strategies the run compares.
     */
    public static long plannedBytes(TaskShape shape) {
        return plannedBytes(shape.tasks, shape.serializedBytes(), STRATEGY_COPIES);
    }

    /** Where a balance's task rate comes from: the harness's own, measured (or read from its cache) on demand. */
    @FunctionalInterface
    public interface TaskRateSource {
        /** The rate; a harness's own measurement may fail as the harness does. */
        TaskRate taskRate() throws Exception;
    }

    /**
     * The device a run of {@code tasks} tasks at data scale {@code scale} will use, checked before any file is made:
     * refused with an {@link InvalidParameterException} naming {@code parameter} where {@link #refusal} says why.
     */
    public static Planned plan(String parameter, DeviceSpec spec, int tasks, double scale, long plannedBytes) {
        String refusal = refusal(spec, plannedBytes);
        if (refusal != null) {
            throw new InvalidParameterException(parameter, spec.text(), refusal);
        }
        return new Planned(spec, tasks, scale, plannedBytes);
    }

    /** A run's device, checked and not made yet ({@link #plan}). */
    public static final class Planned {
        public final DeviceSpec spec;
        public final int tasks;
        public final double scale;
        public final long plannedBytes;

        private Planned(DeviceSpec spec, int tasks, double scale, long plannedBytes) {
            this.spec = spec;
            this.tasks = tasks;
            this.scale = scale;
            this.plannedBytes = plannedBytes;
        }

        /**
         * Opens it in {@code dir}: for a balance ({@link DeviceSpec#needsTaskRate}) the task rate from
         * {@code rates} first, on the storage {@code dir} is on before the device is made there; then
         * {@link RunDevice#open}.
         */
        public RunDevice open(Path dir, TaskRateSource rates, PrintStream log, boolean ownerClosesOnSignal)
                throws Exception {
            TaskRate rate = spec.needsTaskRate() ? rates.taskRate() : null;
            return RunDevice.open(spec, dir, tasks, scale, rate, plannedBytes, log, ownerClosesOnSignal);
        }
    }

    /**
     * Why {@code spec} cannot be used for a run that plans to keep {@code plannedBytes} on it, in words, or null:
     * an emulated device needs what {@link EmulatedDevice#unavailable} says, and room for the run if its size is
     * given.
     */
    public static String refusal(DeviceSpec spec, long plannedBytes) {
        if (spec.isNative()) {
            return null;
        }
        String missing = EmulatedDevice.unavailable();
        if (missing != null) {
            return "native on this machine: an emulated device needs " + missing;
        }
        if (spec.size() > 0 && spec.size() < plannedBytes + SLACK) {
            return String.format(Locale.ROOT, "size=%s or more: the run plans to keep up to %.2f GB on the device, "
                    + "plus %s for the file system", Bytes.format(plannedBytes + SLACK), plannedBytes / 1e9,
                    Bytes.format(SLACK));
        }
        return null;
    }

    /** The capacity an emulated device of {@code spec} gets for a run that keeps up to {@code plannedBytes}. */
    public static long capacity(DeviceSpec spec, long plannedBytes) {
        long bytes = spec.size() > 0 ? spec.size() : Math.max(Bytes.GiB, plannedBytes + plannedBytes / 4 + SLACK);
        // Whole MiB: a loop device ignores a partial last sector, and file systems like round sizes.
        return (bytes + Bytes.MiB - 1) / Bytes.MiB * Bytes.MiB;
    }

    /**
     * Opens the run's storage: for {@code native}, {@code dir} itself; else a device made in {@code dir} with the
     * figures {@code spec} gives a run of {@code tasks} tasks at data scale {@code scale}, then its raw write measured
     * ({@code ownerClosesOnSignal}: see {@link EmulatedDevice#create}).
     */
    public static RunDevice open(DeviceSpec spec, Path dir, int tasks, double scale, long plannedBytes,
                                 PrintStream log, boolean ownerClosesOnSignal) throws IOException {
        return open(spec, dir, tasks, scale, null, plannedBytes, log, ownerClosesOnSignal);
    }

    /**
     * The same for a spec that may {@link DeviceSpec#needsTaskRate need the run's task rate}: {@code rate}, measured
     * by the caller's harness on native storage (null where the spec needs none).
     */
    public static RunDevice open(DeviceSpec spec, Path dir, int tasks, double scale, TaskRate rate,
                                 long plannedBytes, PrintStream log, boolean ownerClosesOnSignal) throws IOException {
        if (spec.isNative()) {
            return new RunDevice(spec, dir, null);
        }
        DeviceProfile.Emulation figures = spec.resolve(tasks, scale, rate);
        EmulatedDevice device = EmulatedDevice.create(figures, capacity(spec, plannedBytes), dir, log,
                ownerClosesOnSignal, mechanism());
        try {
            // About two seconds of the device's bandwidth, forced to it: what one copy through it costs.
            long bytes = Math.max(64 * Bytes.MiB, Math.min(512 * Bytes.MiB, 2 * figures.writeBytesPerSecond));
            device.measureRawWrite(bytes);
            log.println("sluice: device " + spec.text() + ": " + figures.derivation + "; " + device.describe());
            String shortfall = shortfall(figures.writeBytesPerSecond, device.rawWriteMBps());
            if (shortfall != null) {
                log.println("sluice: warning: device " + spec.text() + ": " + shortfall);
            }
            return new RunDevice(spec, device.directory(), device);
        } catch (IOException | RuntimeException | Error e) {
            try {
                device.close();
            } catch (IOException undo) {
                e.addSuppressed(undo);
            }
            throw e;
        }
    }

    /** The system property that makes a run's device with another {@link DeviceMechanism} (to reproduce older runs). */
    public static final String MECHANISM = "sluice.deviceMechanism";

    /**
     * How a run's device is made: {@link DeviceMechanism#FLUID}, or what {@code -Dsluice.deviceMechanism=legacy} asks
     * for (JMH {@code -jvmArgsAppend}, {@code SLUICE_JAVA_OPTS}); anything else is refused, naming the property.
     */
    public static DeviceMechanism mechanism() {
        String given = System.getProperty(MECHANISM, DeviceMechanism.FLUID.text());
        DeviceMechanism mechanism = DeviceMechanism.find(given);
        if (mechanism == null) {
            throw new InvalidParameterException("-D" + MECHANISM, given, "fluid or legacy");
        }
        return mechanism;
    }

    /** A raw write this far below the throttle means the storage under the device, not the throttle, held it. */
    static final double SHORTFALL = 0.85;

    /**
     * Why a device throttled to {@code writeBytesPerSecond} whose raw write measured {@code rawWriteMBps} does not
     * give the run its figures, or null: the storage under an emulated device cannot be made faster by a throttle, so
     * a balance that asks more of it than it has is not the balance the run gets.
     */
    static String shortfall(long writeBytesPerSecond, double rawWriteMBps) {
        double asked = writeBytesPerSecond / 1e6;
        if (rawWriteMBps <= 0 || rawWriteMBps >= SHORTFALL * asked) {
            return null;
        }
        return String.format(Locale.ROOT, "its raw write measured %.1f MB/s, %.0f%% below the %.1f MB/s asked: the "
                + "storage under it is the limit, so the run does not get this balance; ask less of it (fewer --tasks, "
                + "or a --producer that makes the map tasks slower, docs/balance.md)", rawWriteMBps,
                100 * (1 - rawWriteMBps / asked), asked);
    }

    /** Where the run's files go. */
    public Path directory() {
        return directory;
    }

    public DeviceSpec spec() {
        return spec;
    }

    /** The emulated device, or null for native storage. */
    public EmulatedDevice emulated() {
        return device;
    }

    /** What a result records of the device: its spec, and for an emulated one its mechanism and figures. */
    public Map<String, Object> describe() {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("spec", spec.text());
        if (device == null) {
            d.put("mechanism", "native: the output directory as given");
            return d;
        }
        DeviceProfile.Emulation figures = device.figures();
        d.put("profile", spec.profile() == null ? null : spec.profile().name);
        d.put("mechanism", device.mechanism() + "; loop device " + device.majMin() + " (ext4, direct I/O)");
        d.put("capBytes", device.capBytes());
        d.put("writeBytesPerSecond", figures.writeBytesPerSecond);
        d.put("readBytesPerSecond", figures.readBytesPerSecond);
        d.put("iops", figures.iops);
        d.put("dirtyBytes", figures.dirtyBytes);
        if (figures.taskBytesPerSecond > 0) {
            d.put("balance", spec.profile().balance());
            d.put("taskRateMBps", Math.round(figures.taskBytesPerSecond / 1e5) / 10.0);
        }
        d.put("capacityBytes", device.capacity());
        d.put("rawWriteMBps", Math.round(device.rawWriteMBps() * 10) / 10.0);
        d.put("derivation", figures.derivation);
        return d;
    }

    @Override
    public void close() throws IOException {
        if (device != null) {
            device.close();
        }
    }
}
