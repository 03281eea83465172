package dev.sluice.jmh.state;

import dev.sluice.core.run.DirtyPages;
import dev.sluice.core.run.Prefault;
import dev.sluice.spi.Bytes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Makes iterations independent: before each one (outside its time), dirty data is flushed and the gate waits, for at
 * most {@value #MAX_WAIT_SECONDS} s, until Dirty + Writeback are back within {@code TOLERANCE} of their idle level,
 * the level right after the first flush of the trial. What it found and how long it waited are reported per
 * iteration. With {@value #DROP_CACHES_PROPERTY}=true (scripts/bench.sh --drop-caches true, as root) it then drops the
 * clean page cache as well, so that every wave finds the same free memory rather than the previous wave's cached
 * pages: one of the candidate sources of a wave's own spread that docs/paired.md measures. With
 * {@value Prefault#PROPERTY}=true (scripts/bench.sh --prefault true) the benchmark's last setup before each wave asks it
 * to touch about the memory the wave will take ({@link #prefault}; {@link Prefault} says why).
 */
@State(Scope.Benchmark)
public class GateState {
    /** Dirty + Writeback may stay this far above the idle level when an iteration starts. */
    static final long TOLERANCE = 64 * Bytes.MiB;
    static final long MAX_WAIT_SECONDS = 120;
    /** The system property that asks for the clean page cache to be dropped before every wave. */
    public static final String DROP_CACHES_PROPERTY = "sluice.dropCaches";
    /** Writing 1 drops the clean page cache (the kernel's Documentation/admin-guide/sysctl/vm.rst, drop_caches). */
    public static final Path DROP_CACHES = Path.of("/proc/sys/vm/drop_caches");

    private final DirtyPages dirty = DirtyPages.system();
    private long idle = -1;
    private DirtyPages.Settled settled;
    private Path prefaultDir;
    private Prefault prefault;

    @Setup(Level.Iteration)
    public void settle() throws Exception {
        if (!dirty.available()) {
            settled = null;
            return;
        }
        if (idle < 0) {
            idle = dirty.settle(Long.MAX_VALUE / 2, 0, 0).after;
        }
        settled = dirty.settle(idle, TOLERANCE, TimeUnit.SECONDS.toNanos(MAX_WAIT_SECONDS));
        if (!settled.settled) {
            System.out.printf(Locale.ROOT, "%nsluice gate: Dirty + Writeback still %d bytes after %d s (idle %d)%n",
                    settled.after, MAX_WAIT_SECONDS, idle);
        }
        if (Boolean.getBoolean(DROP_CACHES_PROPERTY)) {
            // After the flush, so that what is dropped is clean; the runner checked that this is writable.
            Files.writeString(DROP_CACHES, "1\n");
        }
    }

    /**
     * Where {@value Prefault#PROPERTY} is true, writes and removes a scratch file of about {@code bytes} in a directory
     * of the trial's own on native storage, never on an emulated device ({@link Prefault}); otherwise does nothing.
     * The benchmark's states call it last before the wave, after the gate and any collection, so that as little time
     * as possible passes between it and the wave.
     */
    public void prefault(long bytes) throws IOException {
        if (!Prefault.requested()) {
            return;
        }
        if (prefault == null) {
            prefaultDir = TrialDirectory.create("sluice-prefault-");
            prefault = new Prefault(prefaultDir);
        }
        prefault.touch(bytes);
    }

    @TearDown(Level.Trial)
    public void removePrefaultDirectory() throws IOException {
        Path dir = prefaultDir;
        prefaultDir = null;
        prefault = null;
        TrialDirectory.remove(dir);
    }

    /** What the gate did before this iteration; null where /proc/meminfo cannot be read. */
    public DirtyPages.Settled settled() {
        return settled;
    }

    public DirtyPages dirty() {
        return dirty;
    }
}
