package dev.sluice.core.device;

import dev.sluice.spi.Bytes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A class of storage device as a node has it, in node-level figures with their source: write bandwidth, IOPS, and the
 * dirty page cache the node lets pile up, shared by {@code slots} task slots; and, where known, how fast one slot's map
 * task produced map output with the disk out of the way ({@link #produceBytesPerSecond}).
 *
 * <p>A disk's bandwidth per slot means something only relative to how fast a slot's map task produces bytes: the same
 * 45 MB/s holds back a task that makes 58 MB/s of output and hardly touches one that makes 5. So a profile with a task
 * rate is <em>relative</em>: a run gets the disk per slot that stands to the run's own task rate (measured by the
 * harness that runs it, {@link TaskRate}) as the profile's disk stood to its tasks, times the run's tasks
 * ({@link #forRun(int, double, TaskRate)}). A profile without one (a data sheet's device) is <em>absolute</em>: T
 * tasks get T/slots of its bandwidth ({@link #forRun(int, double)}). Either way IOPS scale by T/slots and the dirty
 * cache by T/slots x f at data scale f (similarity: once the cache is passed, a wave's time is about its bytes over
 * the bandwidth, so scaling data and cache together keeps the shape of the results).
 */
public final class DeviceProfile {
    /**
     * The seed report's machine (16 task slots, 125 GB of memory, a local SSD) as a balance: its disk per slot over its
     * map task's rate, both from the report's tables, nothing fitted.
     */
    public static final String SEED_SSD = "seed-ssd";
    /** The same disk in absolute figures: 45.1 MB/s per slot whatever the run's tasks produce. */
    public static final String SEED_SSD_DERIVED = "seed-ssd-derived";
    /**
     * Legacy: the absolute figures fitted to Sluice's own 2-core harness (write x 3, dirty x 1.25), kept so that the
     * runs made with them (docs/runs/balance/seed-ssd) can be repeated; they carry over to no other harness or machine.
     */
    public static final String SEED_SSD_FITTED = "seed-ssd-fitted";

    private static final Map<String, DeviceProfile> PROFILES = new LinkedHashMap<>();

    static {
        SeedDerivation seed = SeedDerivation.fromSeedReport();
        add(new DeviceProfile(SEED_SSD, "the seed report's node (local SSD, 125 GB of memory, 16 task slots) as a "
                + "balance: its disk per slot over its map task's rate, from its tables, nothing fitted",
                seed.writeBytesPerSecond(), 0, seed.dirtyBytes(), SeedDerivation.SLOTS,
                seed.taskBytesPerSecond() * SeedDerivation.SLOTS, seed.explainDerivation()));
        add(new DeviceProfile(SEED_SSD_DERIVED, "the seed report's disk in absolute figures (45.1 MB/s per slot, "
                + "whatever the run's tasks produce)", seed.writeBytesPerSecond(), 0, seed.dirtyBytes(),
                SeedDerivation.SLOTS, 0, seed.explainDerivation()));
        add(new DeviceProfile(SEED_SSD_FITTED, "legacy: the seed's disk fitted to Sluice's own 2-core harness "
                + "(write x 3, dirty x 1.25); carries over to no other harness", Math.round(
                seed.writeBytesPerSecond() * SeedDerivation.WRITE_CALIBRATION), 0, Math.round(seed.dirtyBytes()
                * SeedDerivation.DIRTY_CALIBRATION), SeedDerivation.SLOTS, 0, seed.explainFitted()));
        // A node of 16 task slots with 64 GiB of memory for the published device classes: the kernel's default
        // vm.dirty_ratio (20) and vm.dirty_background_ratio (10) throttle writers from about their midpoint, 15% of
        // memory, 9.6 GiB.
        long nodeDirty = (long) (0.15 * 64 * Bytes.GiB);
        String node = "; a node of 16 task slots and 64 GiB of memory, whose dirty page cache is taken as 15% of it "
                + "(writers are throttled from about the midpoint of vm.dirty_background_ratio 10 and vm.dirty_ratio "
                + "20, the kernel's defaults): 9.6 GiB";
        add(new DeviceProfile("cloud-gp3", "a cloud block volume at its baseline: AWS EBS gp3, 125 MiB/s and 3000 IOPS",
                125 * Bytes.MiB, 3000, nodeDirty, 16, 0, "AWS EBS documentation, gp3 volumes: baseline 3,000 IOPS and "
                + "125 MiB/s of throughput, included in the price" + node));
        add(new DeviceProfile("sata-ssd", "a SATA SSD: Samsung 870 EVO, 530 MB/s sequential write",
                530_000_000L, 0, nodeDirty, 16, 0, "Samsung 870 EVO data sheet: sequential write up to 530 MB/s (the "
                + "SATA 6 Gb/s interface allows about 550 MB/s)" + node));
        add(new DeviceProfile("nvme-ssd", "an NVMe SSD: Samsung 980 PRO, 5000 MB/s sequential write",
                5_000_000_000L, 0, nodeDirty, 16, 0, "Samsung 980 PRO data sheet (1 TB): sequential write up to 5,000 MB/s"
                + node + ". An emulated device cannot be faster than the storage under it: the measured raw write of "
                + "a run says what it got"));
    }

    private static void add(DeviceProfile profile) {
        PROFILES.put(profile.name, profile);
    }

    public final String name;
    public final String description;
    /** Node-level write bandwidth, bytes per second. */
    public final long writeBytesPerSecond;
    /** Node-level write IOPS; 0 for no limit. */
    public final long writeIops;
    /** The node's dirty page cache before writers are throttled, bytes. */
    public final long dirtyBytes;
    public final int slots;
    /**
     * Node-level map output the node's tasks produced per second with the disk out of the way (its slots' task rate
     * times its slots); 0 where not known, which makes the profile absolute.
     */
    public final long produceBytesPerSecond;
    /** Where the figures come from, and how they were derived. */
    public final String source;

    private DeviceProfile(String name, String description, long writeBytesPerSecond, long writeIops, long dirtyBytes,
                          int slots, long produceBytesPerSecond, String source) {
        this.name = name;
        this.description = description;
        this.writeBytesPerSecond = writeBytesPerSecond;
        this.writeIops = writeIops;
        this.dirtyBytes = dirtyBytes;
        this.slots = slots;
        this.produceBytesPerSecond = produceBytesPerSecond;
        this.source = source;
    }

    /**
     * A node of one task slot with these figures: what {@code per-slot:write=..:dirty=..[:produce=..]} stands for;
     * {@code produce} 0 for none.
     */
    static DeviceProfile perSlot(long writeBytesPerSecond, long writeIops, long dirtyBytes, long produce) {
        return new DeviceProfile(DeviceSpec.PER_SLOT, "a balance given per task slot", writeBytesPerSecond, writeIops,
                dirtyBytes, 1, produce, "given per task slot" + (produce == 0 ? "" : String.format(Locale.ROOT,
                "; its map task produced %.1f MB/s: balance %.3f", produce / 1e6,
                (double) writeBytesPerSecond / produce)));
    }

    /** This profile with the task rate per slot {@code perSlot} (bytes per second) in place of its own. */
    DeviceProfile producing(long perSlot) {
        return new DeviceProfile(name, description, writeBytesPerSecond, writeIops, dirtyBytes, slots,
                perSlot * slots, source + String.format(Locale.ROOT, "; task rate given: %.1f MB/s per slot",
                perSlot / 1e6));
    }

    /** Whether a run needs its own task rate to use this profile ({@link #forRun(int, double, TaskRate)}). */
    public boolean relative() {
        return produceBytesPerSecond > 0;
    }

    /** Map output one slot's task produced per second with the disk out of the way; 0 for an absolute profile. */
    public long producePerSlot() {
        return produceBytesPerSecond / slots;
    }

    /** The disk per slot over the task rate per slot: the balance that carries over; NaN for an absolute profile. */
    public double balance() {
        return relative() ? (double) writeBytesPerSecond / produceBytesPerSecond : Double.NaN;
    }

    public static List<String> names() {
        return List.copyOf(PROFILES.keySet());
    }

    /** The profile named {@code name}, or null. */
    public static DeviceProfile find(String name) {
        return PROFILES.get(name);
    }

    public static List<DeviceProfile> all() {
        return List.copyOf(PROFILES.values());
    }

    /** Write bandwidth per task slot. */
    public long writePerSlot() {
        return writeBytesPerSecond / slots;
    }

    /** Dirty page cache per task slot. */
    public long dirtyPerSlot() {
        return dirtyBytes / slots;
    }

    /** The device a run of {@code tasks} map tasks at data scale {@code scale} gets from an absolute profile, and why. */
    public Emulation forRun(int tasks, double scale) {
        if (relative()) {
            throw new IllegalStateException(name + " is a balance to a task rate: a run needs its own (forRun with "
                    + "a TaskRate)");
        }
        return forRun(tasks, scale, (double) writeBytesPerSecond / slots, null, "");
    }

    /**
     * The device a run of {@code tasks} map tasks at data scale {@code scale} gets from a relative profile whose tasks
     * produce {@code rate} each: per slot, the profile's balance times the rate; and why.
     */
    public Emulation forRun(int tasks, double scale, TaskRate rate) {
        if (!relative()) {
            return forRun(tasks, scale);
        }
        double perSlot = balance() * rate.bytesPerSecond;
        String why = String.format(Locale.ROOT, "balance %s/s of disk per slot / %s/s of map output per slot = %.3f; "
                        + "this run's task rate %s/s (%s) x %.3f = %s/s of disk per slot; ", mb(writePerSlot()),
                mb(producePerSlot()), balance(), mb(Math.round(rate.bytesPerSecond)), rate.how, balance(),
                mb(Math.round(perSlot)));
        return forRun(tasks, scale, perSlot, rate, why);
    }

    private Emulation forRun(int tasks, double scale, double writePerSlot, TaskRate rate, String balance) {
        long write = Math.max(1, Math.round(writePerSlot * tasks));
        long iops = writeIops == 0 ? 0 : Math.max(1, Math.round((double) writeIops * tasks / slots));
        long dirty = dirtyForRun(tasks, scale);
        String writeWhy = rate == null ? String.format(Locale.ROOT, "write %s/s x %d/%d = %s/s", mb(writeBytesPerSecond),
                tasks, slots, mb(write)) : String.format(Locale.ROOT, "write %s/s x %d = %s/s", mb(Math.round(
                writePerSlot)), tasks, mb(write));
        String why = String.format(Locale.ROOT, "%s for %d task%s at scale %.4g: %s%s, dirty %s x %d/%d x %.4g = %s%s",
                name, tasks, tasks == 1 ? "" : "s", scale, balance, writeWhy, gb(dirtyBytes), tasks, slots, scale,
                gb(dirty), iops == 0 ? "" : String.format(Locale.ROOT, ", %d IOPS x %d/%d = %d", writeIops, tasks,
                        slots, iops));
        return new Emulation(write, 0, iops, dirty, rate == null ? 0 : rate.bytesPerSecond, why);
    }

    /** The dirty page cache a run of {@code tasks} tasks at data scale {@code scale} gets: T/slots x f of the node's. */
    public long dirtyForRun(int tasks, double scale) {
        return Math.max(Bytes.MiB, Math.round((double) dirtyBytes * tasks / slots * scale));
    }

    static String mb(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    }

    static String gb(long bytes) {
        return String.format(Locale.ROOT, "%.2f GB", bytes / 1e9);
    }

    /** The figures of an emulated device: what the kernel is told to enforce. */
    public static final class Emulation {
        /** Bytes per second the device's writes are throttled to; 0 for no throttle. */
        public final long writeBytesPerSecond;
        /** Bytes per second its reads are throttled to; 0 for none. */
        public final long readBytesPerSecond;
        /** Write (and read) operations per second; 0 for no limit. */
        public final long iops;
        /** Dirty pages the device may hold before its writers are throttled. */
        public final long dirtyBytes;
        /** The run's task rate the bandwidth was set relative to, bytes per second of one task; 0 for none. */
        public final double taskBytesPerSecond;
        /** How the figures were found. */
        public final String derivation;

        public Emulation(long writeBytesPerSecond, long readBytesPerSecond, long iops, long dirtyBytes,
                         String derivation) {
            this(writeBytesPerSecond, readBytesPerSecond, iops, dirtyBytes, 0, derivation);
        }

        public Emulation(long writeBytesPerSecond, long readBytesPerSecond, long iops, long dirtyBytes,
                         double taskBytesPerSecond, String derivation) {
            this.writeBytesPerSecond = writeBytesPerSecond;
            this.readBytesPerSecond = readBytesPerSecond;
            this.iops = iops;
            this.dirtyBytes = dirtyBytes;
            this.taskBytesPerSecond = taskBytesPerSecond;
            this.derivation = derivation;
        }

        /** Nothing limited: no throttle and no dirty cap (the storage under a device, {@link StorageCeiling}). */
        boolean unlimited() {
            return writeBytesPerSecond == 0 && readBytesPerSecond == 0 && iops == 0 && dirtyBytes == 0;
        }

        Emulation with(Long write, Long read, Long iopsValue, Long dirty, String override) {
            return new Emulation(write != null ? write : writeBytesPerSecond, read != null ? read : readBytesPerSecond,
                    iopsValue != null ? iopsValue : iops, dirty != null ? dirty : dirtyBytes, taskBytesPerSecond,
                    derivation + (override.isEmpty() ? "" : "; overridden: " + override));
        }
    }
}
