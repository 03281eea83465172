package dev.sluice.core.device;

import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A storage device with another machine's balance, made for one run with the kernel's own mechanisms and torn down
 * after it (docs/balance.md, "The mechanism"):
 * <ol>
 *   <li>a sparse image file, attached as a loop device with direct I/O (so the image adds no second page cache),
 *       formatted ext4 and mounted;</li>
 *   <li>its writeback throttled to the profile's bandwidth (and IOPS) by the kernel's block throttling
 *       ({@link Throttle}: cgroup v1 blkio, or cgroup v2 io.max);</li>
 *   <li>its dirty page cache capped through its bdi with {@code strict_limit}, so that its writers are held once its
 *       cache is full, whatever the machine's own {@code vm.dirty_*} (which are never touched); made a fluid disk
 *       ({@link DeviceMechanism#FLUID}, the default): the loop device made new ({@link LoopDevices}), {@code max_bytes}
 *       and {@code min_bytes} at the cache over the kernel's freerun fraction ({@link KernelDirtyLimits}), the rate
 *       limit trained down ({@link RateLimitTraining}) and writeback started from the first byte
 *       ({@link WritebackStarter}); the throttle on a loop device of its own under the one the file system is on,
 *       whose queue is bounded as a disk's, so that a delete drops the pages not yet written rather than waiting for
 *       the whole cache to pass the throttle ({@link LoopDevices}).</li>
 * </ol>
 * Every step is recorded in a {@link DeviceState} before or as it is taken, and {@link #close} undoes them in
 * reverse: on success, failure, exception, and on SIGINT or SIGTERM (a shutdown hook tears the device down if its
 * owner has not within a bounded time). After SIGKILL the record stays; the next device made on this machine, or
 * {@code scripts/sluice device cleanup}, undoes it.
 */
public final class EmulatedDevice implements AutoCloseable {
    /** How long the shutdown hook waits for the owner to close the device before it tears it down itself. */
    static final long HOOK_WAIT_SECONDS = 90;
    /** Inodes: one per MiB is plenty for map outputs, and keeps mkfs and its inode tables small. */
    private static final String BYTES_PER_INODE = "1048576";

    private final DeviceState state;
    private final Path directory;
    private final String mechanism;
    private final DeviceProfile.Emulation figures;
    private final long capacity;
    private final Thread hook;
    private final CountDownLatch closed = new CountDownLatch(1);
    private double rawWriteMBps = -1;
    private boolean tornDown;

    private final long hookWaitSeconds;
    private final PrintStream log;
    private final DeviceMechanism kind;
    private final long capBytes;

    private EmulatedDevice(DeviceState state, Path directory, String mechanism, DeviceProfile.Emulation figures,
                           long capacity, long hookWaitSeconds, PrintStream log, DeviceMechanism kind,
                           long capBytes) {
        this.kind = kind;
        this.capBytes = capBytes;
        this.state = state;
        this.directory = directory;
        this.mechanism = mechanism;
        this.figures = figures;
        this.capacity = capacity;
        this.hookWaitSeconds = hookWaitSeconds;
        this.log = log;
        this.hook = new Thread(this::onShutdown, "sluice-device-teardown");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /**
     * Why an emulated device cannot be made on this machine, in words, or null when it can: it needs root, loop
     * devices, losetup, mkfs.ext4, mount and umount, a block throttle and the bdi's dirty cap.
     */
    public static String unavailable() {
        if (!Files.isDirectory(Path.of("/sys/class/bdi"))) {
            return "a Linux kernel with /sys/class/bdi (the per-device dirty cap)";
        }
        if (!Host.root()) {
            return "root (loop devices, mounts, throttles and bdi settings are root's): this process is not uid 0";
        }
        if (!Files.exists(Path.of("/dev/loop-control"))) {
            return "loop devices (/dev/loop-control does not exist; modprobe loop)";
        }
        for (String program : List.of("losetup", "mkfs.ext4", "mount", "umount", "perl")) {
            if (Host.program(program) == null) {
                return program + " on PATH";
            }
        }
        List<String> why = new ArrayList<>();
        if (Throttle.find(why) == null) {
            return "the kernel's block throttling: " + String.join("; ", why);
        }
        return null;
    }

    /** The block throttle a device made on this machine would use, in words, or why there is none. */
    public static String throttleHere() {
        List<String> why = new ArrayList<>();
        Throttle throttle = Throttle.find(why);
        return throttle != null ? throttle.describe() : "none: " + String.join("; ", why);
    }

    /**
     * Makes a device of {@code capacity} bytes with {@code figures}, its image and mount point in {@code base} (a
     * directory on real storage), after undoing what dead runs left ({@link #cleanUpAbandoned}). On failure,
     * everything made so far is undone before the exception leaves.
     *
     * @param ownerClosesOnSignal whether, on SIGINT or SIGTERM, the owner stops its run and closes the device (the
     *     command line does): the shutdown hook then waits for it, up to {@value #HOOK_WAIT_SECONDS} s; otherwise (a
     *     JMH fork, whose trial teardown does not run at exit) the hook tears the device down at once
     */
    public static EmulatedDevice create(DeviceProfile.Emulation figures, long capacity, Path base, PrintStream log,
                                        boolean ownerClosesOnSignal) throws IOException {
        return create(figures, capacity, base, log, ownerClosesOnSignal, DeviceMechanism.FLUID);
    }

    /**
     * The same, made with {@code mechanism} ({@link DeviceMechanism#FLUID} unless a run reproduces older ones). A fluid
     * device is made larger than {@code asked} where its rate limit's training needs more room
     * ({@link #capacityFor}).
     */
    public static EmulatedDevice create(DeviceProfile.Emulation figures, long asked, Path base, PrintStream log,
                                        boolean ownerClosesOnSignal, DeviceMechanism mechanism) throws IOException {
        long capacity = capacityFor(mechanism, figures.writeBytesPerSecond, asked);
        String missing = unavailable();
        if (missing != null) {
            throw new IOException("an emulated device needs " + missing);
        }
        DeviceRecovery.cleanUpAbandoned(log);
        List<String> why = new ArrayList<>();
        Throttle throttle = Throttle.find(why);
        Path dir = base.toAbsolutePath().normalize();
        boolean madeBase = !Files.isDirectory(dir);
        DeviceState state = DeviceState.create();
        try {
            if (madeBase) {
                state.put("base", dir.toString()); // made for the device: removed with it if left empty
                Files.createDirectories(dir);
            }
            String name = "sluice-device-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
            Path image = dir.resolve(name + ".img");
            state.put("image", image.toString());
            try (RandomAccessFile file = new RandomAccessFile(image.toFile(), "rw")) {
                file.setLength(capacity); // sparse: blocks are allocated as the file system writes them
            }
            String loop;
            String diskMajMin; // where the throttle goes
            int queueRequests = 0;
            if (mechanism == DeviceMechanism.FLUID) {
                String disk = LoopDevices.attachNew(image, state, "loop.made");
                state.put("loop.disk", disk);
                LoopDevices.solidState(disk);
                diskMajMin = majMinOf(disk);
                loop = LoopDevices.attachNew(Path.of(disk), state, "loop.queue.made");
                state.put("loop", loop);
                queueRequests = LoopDevices.boundQueue(loop, figures.writeBytesPerSecond);
            } else {
                loop = loopDevice(Host.run("losetup", "--direct-io=on", "-f", "--show", image.toString()));
                state.put("loop", loop);
                diskMajMin = null;
            }
            String majMin = majMinOf(loop);
            state.put("majMin", majMin);
            Host.run("mkfs.ext4", "-q", "-F", "-i", BYTES_PER_INODE, "-E", "lazy_itable_init=0,lazy_journal_init=0",
                    loop);
            Path mount = dir.resolve(name + ".mnt");
            state.put("mount", mount.toString());
            Files.createDirectories(mount);
            // A fluid device's writeback starter calls syncfs every 5 ms, and each call commits ext4's journal; with
            // barriers every commit sends a cache flush through both loop devices to the image (an fsync of it), 200
            // a second where a disk's file system commits every 5 s: near the storage's ceiling the flushes cost the
            // device up to 8% of its rate (docs/runs/device/queue/results.md). The device is discarded after its run.
            Host.run("mount", "-o", mechanism == DeviceMechanism.FLUID ? "noatime,barrier=0" : "noatime", loop,
                    mount.toString());
            state.put("mounted", "true");
            if (figures.unlimited()) { // the storage under a device, as StorageCeiling measures it
                Path directory = mount.resolve("run");
                Files.createDirectories(directory);
                return new EmulatedDevice(state, directory, mechanism.text() + " device's loop devices and file "
                        + "system with nothing limited: no throttle, no dirty cap", figures, capacity,
                        ownerClosesOnSignal ? HOOK_WAIT_SECONDS : 0, log, mechanism, 0);
            }
            Path bdi = Path.of("/sys/class/bdi", majMin);
            state.put("bdi.strict_limit", Host.read(bdi.resolve("strict_limit")));
            state.put("bdi.max_ratio", Host.read(bdi.resolve("max_ratio")));
            state.put("bdi.min_ratio", Host.read(bdi.resolve("min_ratio")));
            state.put("bdi", bdi.toString());
            long cap = figures.dirtyBytes;
            String cache = "bdi max_bytes " + figures.dirtyBytes + " with strict_limit";
            if (mechanism == DeviceMechanism.FLUID) {
                KernelDirtyLimits limits = KernelDirtyLimits.read();
                cap = limits.capFor(figures.dirtyBytes);
                if (cap >= limits.thresholdBytes()) {
                    throw new IOException(String.format(Locale.ROOT, "a dirty cache of %.3f GB needs a cap of %.3f "
                            + "GB, beyond this machine's dirty threshold (%s): ask for a smaller cache (fewer tasks "
                            + "or a smaller scale)", figures.dirtyBytes / 1e9, cap / 1e9, limits.describe()));
                }
                cache = String.format(Locale.ROOT, "bdi max_bytes = min_bytes = %d with strict_limit (the cache over "
                        + "the freerun fraction; %s)", cap, limits.describe());
            }
            if (mechanism == DeviceMechanism.FLUID) {
                // The floor makes the device's share of the machine's limit its cap whatever else writes back.
                RateLimitTraining.setCap(bdi, cap);
            } else {
                Host.write(bdi.resolve("max_bytes"), String.valueOf(cap));
            }
            Host.write(bdi.resolve("strict_limit"), "1");
            throttle.apply(diskMajMin != null ? diskMajMin : majMin, figures, state);
            Path directory = mount.resolve("run");
            Files.createDirectories(directory);
            if (mechanism == DeviceMechanism.FLUID) {
                try {
                    cache += "; " + RateLimitTraining.train(bdi, directory, figures.writeBytesPerSecond, cap);
                    Host.run("sync", "-f", directory.toString()); // the training's bytes written back
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while training the device's rate limit", e);
                }
                WritebackStarter.start(mount, state);
            }
            return new EmulatedDevice(state, directory, throttle.describe() + "; " + mechanism.text() + ": "
                    + cache + (mechanism == DeviceMechanism.FLUID ? "; loop device made new, over a throttled loop "
                    + "device " + diskMajMin + " with a disk's queue (" + queueRequests + " requests of "
                    + LoopDevices.REQUEST_KIB + " KiB), writeback from the first byte (syncfs every "
                    + WritebackStarter.pauseMillis() + " ms, ext4 without barriers)" : ""), figures, capacity,
                    ownerClosesOnSignal ? HOOK_WAIT_SECONDS : 0, log, mechanism, cap);
        } catch (IOException | RuntimeException | Error e) {
            List<String> problems = DeviceRecovery.tearDown(state);
            for (String problem : problems) {
                e.addSuppressed(new IOException("undoing the device: " + problem));
            }
            throw e;
        }
    }

    /**
     * The storage under a {@link DeviceMechanism#FLUID} device with nothing limited: its two loop devices and its
     * file system, no throttle, dirty cap, training or writeback starter; what {@link StorageCeiling} measures.
     */
    static EmulatedDevice unlimited(long capacity, Path base, PrintStream log) throws IOException {
        return create(new DeviceProfile.Emulation(0, 0, 0, 0, "nothing limited: the storage under a device"),
                capacity, base, log, false, DeviceMechanism.FLUID);
    }

    /**
     * The capacity a device asked to hold {@code asked} bytes is made with: for {@link DeviceMechanism#FLUID}, at least
     * what its rate limit's training writes on it before the run ({@link RateLimitTraining#bytes}, a second or more
     * of its rate: more than a small device holds at fast rates), with a quarter more and 512 MiB for the file
     * system, as a check's device has; whole MiB.
     */
    public static long capacityFor(DeviceMechanism mechanism, long writeBytesPerSecond, long asked) {
        if (mechanism != DeviceMechanism.FLUID) {
            return asked;
        }
        long training = RateLimitTraining.bytes(writeBytesPerSecond);
        long room = (training + training / 4 + (512L << 20) + (1L << 20) - 1) >> 20 << 20;
        return Math.max(asked, room);
    }

    private static String majMinOf(String loop) throws IOException {
        return Host.read(Path.of("/sys/block", Path.of(loop).getFileName().toString(), "dev"));
    }

    /** The device losetup --show printed: its last line naming one (warnings may come before it). */
    private static String loopDevice(String output) throws IOException {
        String[] lines = output.split("\n");
        for (int i = lines.length - 1; i >= 0; i--) {
            if (lines[i].trim().startsWith("/dev/")) {
                return lines[i].trim();
            }
        }
        throw new IOException("losetup named no device: " + output);
    }

    /** Where the run's files go: a directory on the device. */
    public Path directory() {
        return directory;
    }

    /** The throttle's mechanism, in words. */
    public String mechanism() {
        return mechanism;
    }

    public DeviceProfile.Emulation figures() {
        return figures;
    }

    public long capacity() {
        return capacity;
    }

    /** How the device's cache is made. */
    public DeviceMechanism kind() {
        return kind;
    }

    /** The bdi's dirty cap as set: the cache itself ({@link DeviceMechanism#LEGACY}) or the cache over the freerun
     * fraction ({@link DeviceMechanism#FLUID}). */
    public long capBytes() {
        return capBytes;
    }

    /** The loop device's MAJ:MIN. */
    public String majMin() {
        return state.get("majMin");
    }

    /** The bdi's dirty cap and strict flag and the throttle as the kernel reports them now, for checks. */
    public String readBack() throws IOException {
        Path bdi = Path.of(state.get("bdi"));
        return "max_bytes=" + Host.read(bdi.resolve("max_bytes")) + " strict_limit="
                + Host.read(bdi.resolve("strict_limit"));
    }

    /**
     * The raw write of one copy through the device: {@code bytes} written in 1 MiB calls, then forced to it; MB/s
     * (decimal) from the first write to the end of the fsync. The file is removed afterwards.
     */
    public double measureRawWrite(long bytes) throws IOException {
        Path file = directory.resolve("sluice-raw-write");
        ByteBuffer block = ByteBuffer.allocateDirect(1 << 20);
        for (int i = 0; i < block.capacity(); i += 8) {
            block.putLong(i, 0x9E3779B97F4A7C15L * (i + 1)); // incompressible enough; ext4 does not compress anyway
        }
        long start = System.nanoTime();
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            long written = 0;
            while (written < bytes) {
                block.clear().limit((int) Math.min(block.capacity(), bytes - written));
                while (block.hasRemaining()) {
                    written += out.write(block);
                }
            }
            out.force(true);
        } finally {
            double seconds = (System.nanoTime() - start) / 1e9;
            Files.deleteIfExists(file);
            rawWriteMBps = bytes / 1e6 / seconds;
        }
        return rawWriteMBps;
    }

    /** The last {@link #measureRawWrite} in MB/s, or -1. */
    public double rawWriteMBps() {
        return rawWriteMBps;
    }

    /** One line for results: mechanism, limits, dirty cap, and the measured raw write. */
    public String describe() {
        return String.format(Locale.ROOT, "loop device %s (ext4, direct I/O, %s capacity), %s: write %.1f MB/s%s%s, "
                        + "dirty cache %.2f GB; raw write of one copy measured %s",
                majMin(), DeviceProfile.gb(capacity), mechanism, figures.writeBytesPerSecond / 1e6,
                figures.iops > 0 ? ", " + figures.iops + " IOPS" : "",
                figures.readBytesPerSecond > 0 ? String.format(Locale.ROOT, ", read %.1f MB/s",
                        figures.readBytesPerSecond / 1e6) : "",
                figures.dirtyBytes / 1e9, rawWriteMBps < 0 ? "(not yet)"
                        : String.format(Locale.ROOT, "%.1f MB/s", rawWriteMBps));
    }

    /** Undoes everything, in reverse; throws if something could not be undone (the record then stays). */
    @Override
    public synchronized void close() throws IOException {
        if (tornDown) {
            return;
        }
        tornDown = true;
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // The hook is running: it waits for this teardown to finish, so that the JVM does not exit halfway.
        }
        List<String> problems;
        try {
            problems = DeviceRecovery.tearDown(state);
        } finally {
            closed.countDown();
        }
        if (!problems.isEmpty()) {
            String message = "the emulated device was not fully undone (its record " + state.file()
                    + " stays for scripts/sluice device cleanup): " + String.join("; ", problems);
            log.println("sluice: " + message); // said here too: a run stopped by a signal reports nothing else
            throw new IOException(message);
        }
    }

    /** SIGINT or SIGTERM: the owner normally closes the device while stopping; if it has not in time, do it here. */
    private void onShutdown() {
        try {
            if (!closed.await(hookWaitSeconds, TimeUnit.SECONDS)) {
                synchronized (this) {
                    if (!tornDown) {
                        tornDown = true;
                        List<String> problems = DeviceRecovery.tearDown(state);
                        log.println("sluice: the emulated device was torn down at exit"
                                + (problems.isEmpty() ? "" : "; not undone: " + String.join("; ", problems)));
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
