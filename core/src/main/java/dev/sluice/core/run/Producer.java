package dev.sluice.core.run;

import dev.sluice.spi.Bytes;
import dev.sluice.spi.InvalidParameterException;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

/**
 * What makes a map task's batches before its writer gets them. Sluice's harness makes every input outside the timing,
 * so by default ({@code none}) a task does nothing but write: it produces bytes far faster than a real task, which scans,
 * computes and partitions first, and so stands differently to its disk (docs/balance.md). A producer gives each batch
 * the time a real producer would take for its bytes, on the task's thread, before the batch's first record:
 * <ul>
 *   <li>{@code gpu:RATE}: the thread waits, as a task thread does on a GPU scan and partition, its core free for the
 *       writer threads;</li>
 *   <li>{@code cpu:RATE}: the thread works on its core for that time, as a CPU task's scan and row work does.</li>
 * </ul>
 * RATE is input bytes per second (a byte size per second, binary units: {@code 58m} is 58 MiB/s); a batch of B bytes
 * takes B / RATE. The time is part of the task's, as it was of the seed's mapper stage.
 */
public final class Producer {
    public static final String NONE_NAME = "none";
    public static final Producer NONE = new Producer(Kind.NONE, 0, NONE_NAME);

    /** How the time per batch is spent. */
    public enum Kind {
        NONE, GPU, CPU
    }

    public final Kind kind;
    /** Input bytes per second; 0 for none. */
    public final long bytesPerSecond;
    private final String text;

    private Producer(Kind kind, long bytesPerSecond, String text) {
        this.kind = kind;
        this.bytesPerSecond = bytesPerSecond;
        this.text = text;
    }

    public static String allowed() {
        return "none, gpu:RATE (the task's thread waits per batch, as on a GPU scan) or cpu:RATE (it works on its core "
                + "for that time), RATE input bytes per second such as 58m or 58m/s (at least 1m)";
    }

    /** Parses {@code text}; refuses with {@code parameter}, the value and what is allowed. */
    public static Producer parse(String parameter, String text) {
        String t = text == null ? "" : text.trim();
        if (t.equals(NONE_NAME)) {
            return NONE;
        }
        int colon = t.indexOf(':');
        Kind kind = colon < 0 ? null : switch (t.substring(0, colon)) {
            case "gpu" -> Kind.GPU;
            case "cpu" -> Kind.CPU;
            default -> null;
        };
        if (kind == null) {
            throw new InvalidParameterException(parameter, text, allowed());
        }
        long rate;
        try {
            rate = Bytes.parseRate(t.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new InvalidParameterException(parameter, text, allowed());
        }
        if (rate < Bytes.MiB) {
            throw new InvalidParameterException(parameter, text, allowed());
        }
        return new Producer(kind, rate, t);
    }

    public boolean isNone() {
        return kind == Kind.NONE;
    }

    /** How long a batch of {@code bytes} input bytes takes to produce. */
    public long nanosFor(long bytes) {
        return kind == Kind.NONE ? 0 : Math.round(bytes * 1e9 / bytesPerSecond);
    }

    /**
     * Spends the time of a batch of {@code bytes} on the calling thread, waiting or working as the kind says; returns
     * the nanoseconds spent. Interruption ends it early, with the thread's interrupt status set.
     */
    public long produce(long bytes) {
        long nanos = nanosFor(bytes);
        if (nanos == 0) {
            return 0;
        }
        long start = System.nanoTime();
        long deadline = start + nanos;
        if (kind == Kind.GPU) {
            for (long left = nanos; left > 0 && !Thread.currentThread().isInterrupted();
                 left = deadline - System.nanoTime()) {
                LockSupport.parkNanos(this, left);
            }
        } else {
            long x = start | 1;
            while (System.nanoTime() < deadline && !Thread.currentThread().isInterrupted()) {
                for (int i = 0; i < 1000; i++) {
                    x ^= x << 13;
                    x ^= x >>> 7;
                    x ^= x << 17;
                }
            }
            sink = x;
        }
        return System.nanoTime() - start;
    }

    /** Keeps the CPU producer's work from being optimized away. */
    @SuppressWarnings("unused")
    private static volatile long sink;

    @Override
    public String toString() {
        return text;
    }

    /** In words, for progress lines and records. */
    public String describe() {
        return switch (kind) {
            case NONE -> "none (inputs made before the wave)";
            case GPU -> String.format(Locale.ROOT, "gpu at %.1f MB/s of input: the task's thread waits per batch",
                    bytesPerSecond / 1e6);
            case CPU -> String.format(Locale.ROOT, "cpu at %.1f MB/s of input: the task's thread works per batch",
                    bytesPerSecond / 1e6);
        };
    }
}
