package dev.sluice.core.device;

import dev.sluice.spi.Bytes;
import dev.sluice.spi.InvalidParameterException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where a run's files go, written the same on the command line ({@code --device}) and in JMH ({@code -p device=}):
 * <ul>
 *   <li>{@code native}: the output directory as given;</li>
 *   <li>{@code emulated:write=100m:dirty=3g}, with optional {@code iops=N}, {@code read=200m} and {@code size=40g}: a
 *       device made for the run whose writes the kernel throttles to {@code write} bytes per second and whose dirty
 *       page cache it caps at {@code dirty} ({@link EmulatedDevice}); rates are byte sizes per second, binary units
 *       ({@code 100m} is 100 MiB/s; {@code 100m/s} is the same);</li>
 *   <li>a profile name ({@link DeviceProfile}, e.g. {@code seed-ssd}): a device class's node-level figures scaled to
 *       the run's tasks and data scale; the same keys after it override the result ({@code seed-ssd:dirty=2g});</li>
 *   <li>{@code per-slot:write=RATE:dirty=SIZE}: figures per task slot at full scale, as a balance is written, times the
 *       run's tasks (and, for the dirty cache, its data scale).</li>
 * </ul>
 * {@code produce=RATE} after a profile or {@code per-slot} gives the rate at which one slot's map task produced map
 * output with the disk out of the way (its own job's figure): the spec becomes a balance, disk over task rate, and a run
 * sets its disk relative to its own task rate ({@link #needsTaskRate}, {@link #resolve(int, double, TaskRate)}).
 * {@code size} is the emulated device's capacity (by default what the run plans to keep on it, with room to spare).
 */
public final class DeviceSpec {
    public static final String NATIVE = "native";
    public static final String EMULATED = "emulated";
    /** Figures per task slot at full scale, multiplied by the run's tasks (and the dirty cache by its scale). */
    public static final String PER_SLOT = "per-slot";
    private static final List<String> KEYS = List.of("write", "dirty", "iops", "read", "size", "produce");

    private final String text;
    /** Null for native and {@code emulated}; the profile otherwise. */
    private final DeviceProfile profile;
    private final boolean emulated;
    private final Map<String, Long> values;

    private DeviceSpec(String text, DeviceProfile profile, boolean emulated, Map<String, Long> values) {
        this.text = text;
        this.profile = profile;
        this.emulated = emulated;
        this.values = values;
    }

    public static DeviceSpec nativeDevice() {
        return new DeviceSpec(NATIVE, null, false, Map.of());
    }

    /** What is allowed, in words. */
    public static String allowed() {
        return NATIVE + ", " + EMULATED + ":write=RATE:dirty=SIZE[:iops=N][:read=RATE][:size=SIZE] (e.g. "
                + "emulated:write=100m:dirty=3g), " + PER_SLOT + ":write=RATE:dirty=SIZE[:produce=RATE][...] (figures "
                + "per task slot at full scale, times the run's tasks and, for dirty, its scale; with produce, the "
                + "rate one slot's map task produced map output, the disk is set relative to the run's own task "
                + "rate), or a profile: " + String.join(", ", DeviceProfile.names()) + " (optionally with the same "
                + "keys overriding it, e.g. seed-ssd:dirty=2g or sata-ssd:produce=60m)";
    }

    /** Parses {@code text}; refuses with {@code parameter}, the value and what is allowed. */
    public static DeviceSpec parse(String parameter, String text) {
        String trimmed = text == null ? "" : text.trim();
        if (trimmed.equals(NATIVE)) {
            return nativeDevice();
        }
        String[] pieces = trimmed.split(":", -1);
        DeviceProfile profile = DeviceProfile.find(pieces[0]);
        if (profile == null && !pieces[0].equals(EMULATED) && !pieces[0].equals(PER_SLOT)) {
            throw new InvalidParameterException(parameter, text, allowed());
        }
        Map<String, Long> values = new LinkedHashMap<>();
        for (int i = 1; i < pieces.length; i++) {
            String[] kv = pieces[i].split("=", 2);
            if (kv.length != 2 || !KEYS.contains(kv[0].trim())) {
                throw new InvalidParameterException(parameter, text, "keys " + String.join(", ", KEYS) + " as key=value"
                        + " after " + pieces[0] + " (not '" + pieces[i] + "'); " + allowed());
            }
            String key = kv[0].trim();
            if (values.containsKey(key)) {
                throw new InvalidParameterException(parameter, text, "each key once (" + key + " is given twice)");
            }
            values.put(key, number(parameter, text, key, kv[1].trim()));
        }
        if (pieces[0].equals(EMULATED) && values.containsKey("produce")) {
            throw new InvalidParameterException(parameter, text, "produce=RATE after per-slot or a profile only: an "
                    + "emulated device's figures are the run's own, not a node's balance; " + allowed());
        }
        if (profile == null && (!values.containsKey("write") || !values.containsKey("dirty"))) {
            throw new InvalidParameterException(parameter, text, "an emulated device with both write=RATE and "
                    + "dirty=SIZE; " + allowed());
        }
        if (pieces[0].equals(PER_SLOT)) {
            // A node of one slot: the run's tasks take a slot each, its data scale scales the dirty cache.
            profile = DeviceProfile.perSlot(values.get("write"), values.getOrDefault("iops", 0L), values.get("dirty"),
                    values.getOrDefault("produce", 0L));
            values.remove("write");
            values.remove("iops");
            values.remove("dirty");
            values.remove("produce");
        } else if (profile != null && values.containsKey("produce")) {
            profile = profile.producing(values.remove("produce"));
        }
        return new DeviceSpec(trimmed, profile, true, values);
    }

    private static long number(String parameter, String text, String key, String value) {
        boolean rate = key.equals("write") || key.equals("read") || key.equals("produce");
        try {
            if (key.equals("iops")) {
                long n = Long.parseLong(value);
                if (n < 1) {
                    throw new NumberFormatException();
                }
                return n;
            }
            long n = rate ? Bytes.parseRate(value) : Bytes.parse(value);
            long least = key.equals("size") ? 64 * Bytes.MiB : key.equals("dirty") ? Bytes.MiB : 64 * Bytes.KiB;
            if (n < least) {
                throw new InvalidParameterException(parameter, text, key + " of at least " + Bytes.format(least)
                        + (rate ? " per second" : "") + " (not " + value + ")");
            }
            return n;
        } catch (NumberFormatException e) {
            throw new InvalidParameterException(parameter, text, key.equals("iops") ? "iops=N, an integer >= 1"
                    : key + "=" + (rate ? "RATE, a byte size per second such as 100m or 100m/s"
                    : "SIZE, a byte size such as 3g") + " (not '" + value + "')");
        }
    }

    /** The spec as given. */
    public String text() {
        return text;
    }

    public boolean isNative() {
        return !emulated;
    }

    /** The profile the spec names, or null. */
    public DeviceProfile profile() {
        return profile;
    }

    /** The device's capacity if the spec gives one, else 0 (sized for the run). */
    public long size() {
        return values.getOrDefault("size", 0L);
    }

    /**
     * Whether the spec is a balance to a task rate, so that a run must measure (or be given) its own before it can
     * make the device: a relative profile, or {@code produce=} given.
     */
    public boolean needsTaskRate() {
        return profile != null && profile.relative();
    }

    /**
     * The figures of the device for a run of {@code tasks} map tasks at data scale {@code scale} (a profile's are
     * scaled to them; an {@code emulated:} spec's are as given). Not for {@code native}, nor for a spec that
     * {@link #needsTaskRate needs a task rate}.
     */
    public DeviceProfile.Emulation resolve(int tasks, double scale) {
        return resolve(tasks, scale, null);
    }

    /**
     * The same for a run whose map tasks each produce {@code rate} with the disk out of the way (null where the spec
     * does not {@link #needsTaskRate need one}).
     */
    public DeviceProfile.Emulation resolve(int tasks, double scale, TaskRate rate) {
        if (needsTaskRate() && rate == null) {
            throw new IllegalStateException(text + " sets the disk relative to the run's task rate, which was not "
                    + "given");
        }
        if (!emulated) {
            throw new IllegalStateException("a native device has no emulated figures");
        }
        List<String> given = new ArrayList<>();
        for (Map.Entry<String, Long> e : values.entrySet()) {
            if (!e.getKey().equals("size")) {
                given.add(e.getKey() + "=" + (e.getKey().equals("iops") ? e.getValue() : Bytes.format(e.getValue())));
            }
        }
        if (profile == null) {
            return new DeviceProfile.Emulation(values.get("write"), values.getOrDefault("read", 0L),
                    values.getOrDefault("iops", 0L), values.get("dirty"), String.format(Locale.ROOT,
                    "given: %s", String.join(", ", given)));
        }
        DeviceProfile.Emulation scaled = rate != null && profile.relative() ? profile.forRun(tasks, scale, rate)
                : profile.forRun(tasks, scale);
        return scaled.with(values.get("write"), values.get("read"), values.get("iops"),
                values.get("dirty"), String.join(", ", given));
    }

    /** Two specs are the same device where their text is: a run names its configurations by it. */
    @Override
    public boolean equals(Object o) {
        return o instanceof DeviceSpec other && other.text.equals(text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    @Override
    public String toString() {
        return text;
    }
}
