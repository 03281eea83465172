package dev.sluice.core.device;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Loop devices made new for one emulated device and removed with it. A loop device's bdi lives as long as the loop
 * device, not its attachment, and carries the kernel's write bandwidth estimate and {@code dirty_ratelimit} from one
 * use to the next: a device made on {@code /dev/loop0} after a slow one starts with the slow one's estimates (traced at
 * 35 MB/s and at the kernel's minimum, 4 KB/s; docs/balance.md). A loop number never used since boot starts from the
 * kernel's initial estimates, and removing it after ({@code LOOP_CTL_REMOVE}) keeps the next one fresh too.
 *
 * <p>A fluid device is two of them: the disk, attached to the image and throttled, and over it the device the file
 * system is made on, whose queue is bounded as a disk's is ({@link #boundQueue}). The block throttle holds the bios it
 * delays in a queue of its own, without bound and before the device's request queue, so on one loop device every
 * dirty page, once writeback starts, sits under writeback in the throttle's queue; the kernel waits for a page under
 * writeback before it frees it, so deleting a file written moments before waited for the disk to write it (traced:
 * an unlink of one of per-batch's temporary files took 280 ms at small on seed-ssd; docs/balance.md). Over a second
 * loop device the flusher blocks when the upper queue's requests are all in flight, as it blocks on a disk's, and the
 * pages not yet submitted stay dirty: a delete drops them, as a disk's kernel does.
 */
final class LoopDevices {
    /** Numbers from here up are Sluice's: below are the ones a system makes at boot and tools take first. */
    static final int FIRST = 64;
    private static final int LAST = 1023;
    /**
     * The upper device's queue: requests of at most {@link #REQUEST_KIB} KiB, as many as hold {@link #QUEUE_SECONDS}
     * of the device's rate, from {@link #MIN_REQUESTS} to {@link #MAX_REQUESTS} (2 to 8 MiB): a few MiB under
     * writeback at once, as on a disk, rather than the whole cache. At 200 MiB/s a queue of 16 measured 0.998 to 1.073
     * of the fluid model at three times the cache, one of 64 0.994 to 1.039 (docs/runs/device/queue/results.md).
     */
    static final int REQUEST_KIB = 128;
    static final double QUEUE_SECONDS = 0.04;
    static final int MIN_REQUESTS = 16;
    static final int MAX_REQUESTS = 64;
    /** LOOP_CTL_REMOVE, from include/uapi/linux/loop.h. */
    private static final String REMOVE = "0x4C81";

    private LoopDevices() {}

    /**
     * Attaches {@code backing} (the image, or the disk's loop device) with direct I/O to a loop device that does not
     * exist yet, recording its number in {@code state} under {@code key} before it exists (so that a teardown removes
     * it); returns its path.
     */
    static String attachNew(Path backing, DeviceState state, String key) throws IOException {
        IOException last = null;
        for (int n = FIRST; n <= LAST; n++) {
            if (Files.exists(Path.of("/sys/block/loop" + n)) || Files.exists(Path.of("/dev/loop" + n))) {
                continue;
            }
            state.put(key, String.valueOf(n));
            String loop = "/dev/loop" + n;
            try {
                Host.run("losetup", "--direct-io=on", loop, backing.toString());
                return loop;
            } catch (IOException e) {
                last = e; // another process took this number first: try the next
            }
        }
        throw new IOException("no unused loop device number from " + FIRST + " to " + LAST
                + (last == null ? "" : " could be attached (" + last.getMessage() + ")"));
    }

    /**
     * Marks the disk's loop device non-rotational before its throttle is set: the block throttle takes its time slice
     * from that flag when its first rule is set (20 ms for a solid-state device, 100 ms for a rotating one, which a
     * loop device over a file is by default), and a queue of a few MiB keeps a 20 ms slice busy where a 100 ms one
     * would idle between bursts.
     */
    static void solidState(String loop) throws IOException {
        Host.write(Path.of("/sys/block", Path.of(loop).getFileName().toString(), "queue", "rotational"), "0");
    }

    /**
     * How many requests of {@link #REQUEST_KIB} KiB the queue of a device of {@code writeBytesPerSecond} holds; an
     * unthrottled one (0, {@link StorageCeiling}'s) the most, so that what it measures is the storage's, not the
     * queue's.
     */
    static int queueRequests(long writeBytesPerSecond) {
        if (writeBytesPerSecond <= 0) {
            return MAX_REQUESTS;
        }
        long requests = (long) Math.ceil(writeBytesPerSecond * QUEUE_SECONDS / (REQUEST_KIB * 1024.0));
        return (int) Math.max(MIN_REQUESTS, Math.min(MAX_REQUESTS, requests));
    }

    /** Bounds {@code loop}'s request queue as a disk's, for a device of {@code writeBytesPerSecond}; returns it. */
    static int boundQueue(String loop, long writeBytesPerSecond) throws IOException {
        Path queue = Path.of("/sys/block", Path.of(loop).getFileName().toString(), "queue");
        int requests = queueRequests(writeBytesPerSecond);
        Host.write(queue.resolve("max_sectors_kb"), String.valueOf(REQUEST_KIB));
        Host.write(queue.resolve("nr_requests"), String.valueOf(requests));
        return requests;
    }

    /**
     * Removes the loop device {@code state} made under {@code key}, once detached; tries a few times (udev may hold it
     * a moment).
     */
    static void undo(DeviceState state, String key, List<String> problems) {
        String made = state.get(key);
        if (made == null || !Files.exists(Path.of("/sys/block/loop" + made))) {
            return;
        }
        String error = null;
        for (int attempt = 0; attempt < 20; attempt++) {
            try {
                Host.run("perl", "-e", "open(my $f, '<', '/dev/loop-control') or die \"loop-control: $!\\n\"; "
                        + "ioctl($f, " + REMOVE + ", 0 + $ARGV[0]) or die \"LOOP_CTL_REMOVE $ARGV[0]: $!\\n\"", made);
                return;
            } catch (IOException e) {
                error = e.getMessage();
                try {
                    Thread.sleep(100);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        problems.add("removing the loop device /dev/loop" + made + ": " + error);
    }
}
