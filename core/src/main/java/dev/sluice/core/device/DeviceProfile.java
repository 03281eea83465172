package dev.sluice.core.device;

import dev.sluice.spi.Bytes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A class of storage device as a node has it, in node-level figures with their source: write bandwidth, IOPS, and the
 * dirty page cache the node lets pile up, shared by {@code slots} task slots. A run of T map tasks at data scale f gets
 * T/slots of the bandwidth and IOPS and T/slots x f of the dirty cache ({@link #forRun}): the same balance per task
 * slot, with the cache scaled as the data is (similarity: once the cache is passed, a wave's time is about its bytes
 * over the bandwidth, so scaling data and cache together keeps the shape of the results).
 */
public final class DeviceProfile {
    /** The seed report's machine: 16 task slots, 125 GB of memory, a local SSD; calibrated on the baseline's column. */
    public static final String SEED_SSD = "seed-ssd";
    /** The same as the seed report's tables give it, before calibration. */
    public static final String SEED_SSD_DERIVED = "seed-ssd-derived";

    private static final Map<String, DeviceProfile> PROFILES = new LinkedHashMap<>();

    static {
        SeedDerivation seed = SeedDerivation.fromSeedReport();
        add(new DeviceProfile(SEED_SSD, "the seed report's node (local SSD, 125 GB of memory, 16 task slots), "
                + "calibrated to this machine's map tasks on the baseline's column", Math.round(
                seed.writeBytesPerSecond() * SeedDerivation.WRITE_CALIBRATION), 0, Math.round(seed.dirtyBytes()
                * SeedDerivation.DIRTY_CALIBRATION), SeedDerivation.SLOTS, seed.explain()));
        add(new DeviceProfile(SEED_SSD_DERIVED, "the seed report's node as its tables give it, uncalibrated",
                seed.writeBytesPerSecond(), 0, seed.dirtyBytes(), SeedDerivation.SLOTS, seed.explainDerivation()));
        // A node of 16 task slots with 64 GiB of memory for the published device classes: the kernel's default
        // vm.dirty_ratio (20) and vm.dirty_background_ratio (10) throttle writers from about their midpoint, 15% of
        // memory, 9.6 GiB.
        long nodeDirty = (long) (0.15 * 64 * Bytes.GiB);
        String node = "; a node of 16 task slots and 64 GiB of memory, whose dirty page cache is taken as 15% of it "
                + "(writers are throttled from about the midpoint of vm.dirty_background_ratio 10 and vm.dirty_ratio "
                + "20, the kernel's defaults): 9.6 GiB";
        add(new DeviceProfile("cloud-gp3", "a cloud block volume at its baseline: AWS EBS gp3, 125 MiB/s and 3000 IOPS",
                125 * Bytes.MiB, 3000, nodeDirty, 16, "AWS EBS documentation, gp3 volumes: baseline 3,000 IOPS and "
                + "125 MiB/s of throughput, included in the price" + node));
        add(new DeviceProfile("sata-ssd", "a SATA SSD: Samsung 870 EVO, 530 MB/s sequential write",
                530_000_000L, 0, nodeDirty, 16, "Samsung 870 EVO data sheet: sequential write up to 530 MB/s (the "
                + "SATA 6 Gb/s interface allows about 550 MB/s)" + node));
        add(new DeviceProfile("nvme-ssd", "an NVMe SSD: Samsung 980 PRO, 5000 MB/s sequential write",
                5_000_000_000L, 0, nodeDirty, 16, "Samsung 980 PRO data sheet (1 TB): sequential write up to 5,000 MB/s"
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
    /** Where the figures come from, and how they were derived. */
    public final String source;

    private DeviceProfile(String name, String description, long writeBytesPerSecond, long writeIops, long dirtyBytes,
                          int slots, String source) {
        this.name = name;
        this.description = description;
        this.writeBytesPerSecond = writeBytesPerSecond;
        this.writeIops = writeIops;
        this.dirtyBytes = dirtyBytes;
        this.slots = slots;
        this.source = source;
    }

    /** A node of one task slot with these figures: what {@code per-slot:write=..:dirty=..} stands for. */
    static DeviceProfile perSlot(long writeBytesPerSecond, long writeIops, long dirtyBytes) {
        return new DeviceProfile(DeviceSpec.PER_SLOT, "a balance given per task slot", writeBytesPerSecond, writeIops,
                dirtyBytes, 1, "given per task slot");
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

    /** The device a run of {@code tasks} map tasks at data scale {@code scale} gets, and why. */
    public Emulation forRun(int tasks, double scale) {
        long write = Math.max(1, Math.round((double) writeBytesPerSecond * tasks / slots));
        long iops = writeIops == 0 ? 0 : Math.max(1, Math.round((double) writeIops * tasks / slots));
        long dirty = Math.max(Bytes.MiB, Math.round((double) dirtyBytes * tasks / slots * scale));
        String why = String.format(Locale.ROOT, "%s for %d task%s at scale %.4g: write %s/s x %d/%d = %s/s, dirty %s "
                        + "x %d/%d x %.4g = %s%s", name, tasks, tasks == 1 ? "" : "s", scale, mb(writeBytesPerSecond),
                tasks, slots, mb(write), gb(dirtyBytes), tasks, slots, scale, gb(dirty),
                iops == 0 ? "" : String.format(Locale.ROOT, ", %d IOPS x %d/%d = %d", writeIops, tasks, slots, iops));
        return new Emulation(write, 0, iops, dirty, why);
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
        /** How the figures were found. */
        public final String derivation;

        public Emulation(long writeBytesPerSecond, long readBytesPerSecond, long iops, long dirtyBytes,
                         String derivation) {
            this.writeBytesPerSecond = writeBytesPerSecond;
            this.readBytesPerSecond = readBytesPerSecond;
            this.iops = iops;
            this.dirtyBytes = dirtyBytes;
            this.derivation = derivation;
        }

        Emulation with(Long write, Long read, Long iopsValue, Long dirty, String override) {
            return new Emulation(write != null ? write : writeBytesPerSecond, read != null ? read : readBytesPerSecond,
                    iopsValue != null ? iopsValue : iops, dirty != null ? dirty : dirtyBytes,
                    derivation + (override.isEmpty() ? "" : "; overridden: " + override));
        }
    }
}
