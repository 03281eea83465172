package dev.sluice.jmh.profile;

/**
 * The span of a measured wave, for a profiler that must see the wave and nothing else: JMH calls its profilers
 * around whole iterations, which here include the gate's flush, the reduce-side read, verification and removal.
 * The benchmark opens and closes the window; the fork's {@link WaveProfiler}, if one runs, is its only listener.
 */
public final class WaveWindow {
    /** Told when a wave starts and ends, on the benchmark's thread. */
    public interface Listener {
        void opened();

        void closed();
    }

    private static volatile Listener listener;

    private WaveWindow() {}

    public static void listen(Listener l) {
        listener = l;
    }

    public static void opened() {
        Listener l = listener;
        if (l != null) {
            l.opened();
        }
    }

    public static void closed() {
        Listener l = listener;
        if (l != null) {
            l.closed();
        }
    }
}
