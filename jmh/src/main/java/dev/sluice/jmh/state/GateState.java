package dev.sluice.jmh.state;

import dev.sluice.core.run.DirtyPages;
import dev.sluice.spi.Bytes;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Makes iterations independent: before each one (outside its time), dirty data is flushed and the gate waits, for at
 * most {@value #MAX_WAIT_SECONDS} s, until Dirty + Writeback are back within {@code TOLERANCE} of their idle level,
 * the level right after the first flush of the trial. What it found and how long it waited are reported per
 * iteration.
 */
@State(Scope.Benchmark)
public class GateState {
    /** Dirty + Writeback may stay this far above the idle level when an iteration starts. */
    static final long TOLERANCE = 64 * Bytes.MiB;
    static final long MAX_WAIT_SECONDS = 120;

    private final DirtyPages dirty = DirtyPages.system();
    private long idle = -1;
    private DirtyPages.Settled settled;

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
    }

    /** What the gate did before this iteration; null where /proc/meminfo cannot be read. */
    public DirtyPages.Settled settled() {
        return settled;
    }

    public DirtyPages dirty() {
        return dirty;
    }
}
