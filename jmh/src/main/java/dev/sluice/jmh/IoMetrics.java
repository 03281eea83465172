package dev.sluice.jmh;

import dev.sluice.core.io.CountedStorage;
import dev.sluice.core.io.IoSnapshot;
import dev.sluice.core.io.ProcSelfIo;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAccumulator;

/**
 * Where a benchmark of this fork tells {@link ShuffleIoProfiler} what to count: the trial's storage, the map tasks
 * finished, the peak memory of their writers, and the counters and kernel figures taken right before an iteration's
 * operations start (in its setup, after the trial's setup has made the input) and right after they end (in its
 * teardown, before the output is deleted, which the kernel would count as cancelled writes).
 */
public final class IoMetrics {
    private static final AtomicReference<CountedStorage> STORAGE = new AtomicReference<>();
    private static final AtomicLong MAP_TASKS = new AtomicLong();
    private static final LongAccumulator PEAK_BUFFERED = new LongAccumulator(Math::max, 0);
    private static final AtomicLong COMMITTED_DATA = new AtomicLong();
    private static volatile End start;
    private static volatile End end;

    /** Figures at the end of an iteration's operations. */
    static final class End {
        final IoSnapshot io;
        final Optional<ProcSelfIo> proc;
        final long mapTasks;

        End(IoSnapshot io, Optional<ProcSelfIo> proc, long mapTasks) {
            this.io = io;
            this.proc = proc;
            this.mapTasks = mapTasks;
        }
    }

    private IoMetrics() {}

    /** A trial's storage; null when the trial ends. */
    public static void register(CountedStorage storage) {
        STORAGE.set(storage);
    }

    /** One map task finished; its writer held at most {@code peakBufferedBytes}. */
    public static void mapTaskDone(long peakBufferedBytes) {
        PEAK_BUFFERED.accumulate(peakBufferedBytes);
        MAP_TASKS.incrementAndGet();
    }

    /** Called by an iteration's setup, after the trial's: the operations start now. */
    public static void operationsStarting() {
        PEAK_BUFFERED.reset();
        end = null;
        start = snapshot();
    }

    /** Called by an iteration's teardown before it deletes anything. */
    public static void operationsEnded() {
        end = snapshot();
    }

    private static End snapshot() {
        CountedStorage storage = STORAGE.get();
        return storage == null ? null : new End(storage.counters().snapshot(), ProcSelfIo.read(), MAP_TASKS.get());
    }

    /** The figures recorded by {@link #operationsStarting}, once. */
    static End takeStart() {
        End s = start;
        start = null;
        return s;
    }

    static long takePeakBuffered() {
        return PEAK_BUFFERED.getThenReset();
    }

    /** The figures recorded by {@link #operationsEnded}, once. */
    static End takeEnd() {
        End e = end;
        end = null;
        return e;
    }
}
