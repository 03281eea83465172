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
 */
final class LoopDevices {
    /** Numbers from here up are Sluice's: below are the ones a system makes at boot and tools take first. */
    static final int FIRST = 64;
    private static final int LAST = 1023;
    /** LOOP_CTL_REMOVE, from include/uapi/linux/loop.h. */
    private static final String REMOVE = "0x4C81";

    private LoopDevices() {}

    /**
     * Attaches {@code image} with direct I/O to a loop device that does not exist yet, recording its number in
     * {@code state} before it exists (so that a teardown removes it); returns its path.
     */
    static String attachNew(Path image, DeviceState state) throws IOException {
        IOException last = null;
        for (int n = FIRST; n <= LAST; n++) {
            if (Files.exists(Path.of("/sys/block/loop" + n)) || Files.exists(Path.of("/dev/loop" + n))) {
                continue;
            }
            state.put("loop.made", String.valueOf(n));
            String loop = "/dev/loop" + n;
            try {
                Host.run("losetup", "--direct-io=on", loop, image.toString());
                return loop;
            } catch (IOException e) {
                last = e; // another process took this number first: try the next
            }
        }
        throw new IOException("no unused loop device number from " + FIRST + " to " + LAST
                + (last == null ? "" : " could be attached (" + last.getMessage() + ")"));
    }

    /** Removes the loop device {@code state} made, once detached; tries a few times (udev may hold it a moment). */
    static void undo(DeviceState state, List<String> problems) {
        String made = state.get("loop.made");
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
