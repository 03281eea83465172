package dev.sluice.core.device;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The physical reference for an emulated storage device, as a fluid: a disk that writes {@code R} bytes a second
 * behind a dirty page cache of {@code D} bytes. An emulation is judged against it, so it says what the device should
 * take for a given set of writers, without any of the kernel's noise.
 *
 * <p>The cache absorbs writes until it holds {@code D} bytes, and the disk drains it at {@code R} from the first byte,
 * for as long as it holds anything. While the cache has room, every writer writes at its own rate. Once it is full, the
 * writers together can only put in what the disk takes out, {@code R}, and they share it max-min fairly: each gets the
 * lesser of its own rate and an equal share of what the slower ones leave, because the kernel gives every writer of a
 * device the same rate limit. A writer is finished when its last byte is in the cache; nobody waits for the disk
 * (there is no fsync).
 *
 * <p>For one writer of {@code S} bytes at rate {@code r} that comes to {@code max(S/r, (S - D)/R)}, never below 0.
 * For several it is worked out exactly, event by event (the cache fills, a writer finishes, the cache empties), since
 * between events every rate is constant and every amount changes linearly; there is no time step to be wrong by.
 * Immutable and thread-safe.
 */
public final class FluidDisk {
    /** How far a measured time may depart from the model before a run warns that its emulation is in question. */
    public static final double WARN_DEPARTURE = 0.15;

    /**
     * Amounts within this fraction of the problem's size (its cache or its bytes, whichever is larger) are taken as
     * equal, so that a cache that rounding leaves a hair short of full still counts as full.
     */
    private static final double RELATIVE_TOLERANCE = 1e-12;

    private final double writeBytesPerSecond;
    private final double dirtyBytes;

    /**
     * A disk that writes {@code writeBytesPerSecond} behind a cache of {@code dirtyBytes}.
     *
     * @param writeBytesPerSecond the disk's write rate: positive and finite, since a disk that writes nothing never
     *     finishes and one that writes infinitely fast is no disk at all
     * @param dirtyBytes the dirty page cache in bytes: 0 or more ({@code +Infinity} for a cache that never fills)
     * @throws IllegalArgumentException if either is outside those bounds
     */
    public FluidDisk(double writeBytesPerSecond, double dirtyBytes) {
        if (!(writeBytesPerSecond > 0) || Double.isInfinite(writeBytesPerSecond)) {
            throw new IllegalArgumentException("writeBytesPerSecond must be a positive finite number of bytes per "
                    + "second, not " + writeBytesPerSecond);
        }
        if (!(dirtyBytes >= 0)) {
            throw new IllegalArgumentException("dirtyBytes must be 0 or more bytes, not " + dirtyBytes);
        }
        this.writeBytesPerSecond = writeBytesPerSecond;
        this.dirtyBytes = dirtyBytes;
    }

    /** The disk's write rate in bytes a second: how fast it drains the cache. */
    public double writeBytesPerSecond() {
        return writeBytesPerSecond;
    }

    /** The dirty page cache in bytes: how much the writers may get ahead of the disk. */
    public double dirtyBytes() {
        return dirtyBytes;
    }

    /**
     * One writer: {@code bytes} to write at up to {@code bytesPerSecond}, its own pace when the disk does not hold it
     * back.
     *
     * @param bytes what it writes: finite and 0 or more, since a writer of endless bytes never finishes
     * @param bytesPerSecond its own rate: positive, or {@code +Infinity} for a writer that writes as fast as it can
     */
    public record Writer(double bytes, double bytesPerSecond) {
        public Writer {
            if (!(bytes >= 0) || Double.isInfinite(bytes)) {
                throw new IllegalArgumentException("bytes must be a finite number of bytes, 0 or more, not " + bytes);
            }
            if (!(bytesPerSecond > 0)) {
                throw new IllegalArgumentException("bytesPerSecond must be positive (or +Infinity for unpaced), not "
                        + bytesPerSecond);
            }
        }

        /** A writer of {@code bytes} that writes as fast as it can, so that only the disk and its cache limit it. */
        public static Writer unpaced(double bytes) {
            return new Writer(bytes, Double.POSITIVE_INFINITY);
        }

        /** Its time with no disk at all: its bytes at its own rate, 0 when unpaced. */
        double unheldSeconds() {
            return Double.isInfinite(bytesPerSecond) ? 0 : bytes / bytesPerSecond;
        }
    }

    /**
     * What the writers take on this disk.
     *
     * @param seconds when the last writer finishes
     * @param finishSeconds when each writer finishes, in the order given; a copy, so that the result stays as it was
     * @param heldBackSeconds how much later the last writer finishes than it would with no disk at all (every writer at
     *     its own pace): the part of {@code seconds} that is the disk's doing
     */
    public record Result(double seconds, double[] finishSeconds, double heldBackSeconds) {
        public Result {
            finishSeconds = finishSeconds.clone();
        }

        /** When each writer finishes, in the order given; a copy. */
        @Override
        public double[] finishSeconds() {
            return finishSeconds.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Result r
                    && Double.compare(seconds, r.seconds) == 0
                    && Arrays.equals(finishSeconds, r.finishSeconds)
                    && Double.compare(heldBackSeconds, r.heldBackSeconds) == 0;
        }

        @Override
        public int hashCode() {
            return Objects.hash(seconds, Arrays.hashCode(finishSeconds), heldBackSeconds);
        }

        @Override
        public String toString() {
            return "Result[seconds=" + seconds + ", finishSeconds=" + Arrays.toString(finishSeconds)
                    + ", heldBackSeconds=" + heldBackSeconds + "]";
        }
    }

    /** When the last of {@code writers}, all starting together, finishes: {@link #finish}'s {@code seconds}. */
    public double seconds(List<Writer> writers) {
        return finish(writers).seconds();
    }

    /**
     * When each of {@code writers}, all starting together at 0 on an empty cache, has its last byte in the cache.
     * No writers take no time.
     */
    public Result finish(List<Writer> writers) {
        Writer[] w = writers.toArray(new Writer[0]);
        int n = w.length;
        if (n == 1) {
            // One writer has a closed form, exact where the simulation would add rounding.
            Writer only = Objects.requireNonNull(w[0], "writer 0");
            double unheld = only.unheldSeconds();
            double seconds = Math.max(unheld, Math.max(0, (only.bytes() - dirtyBytes) / writeBytesPerSecond));
            return new Result(seconds, new double[] {seconds}, seconds - unheld);
        }
        double[] remaining = new double[n];
        double[] finish = new double[n];
        boolean[] done = new boolean[n];
        double scale = Double.isInfinite(dirtyBytes) ? 0 : dirtyBytes;
        double unheld = 0;
        for (int i = 0; i < n; i++) {
            Objects.requireNonNull(w[i], "writer " + i);
            remaining[i] = w[i].bytes();
            scale = Math.max(scale, w[i].bytes());
            unheld = Math.max(unheld, w[i].unheldSeconds());
        }
        double tolerance = RELATIVE_TOLERANCE * Math.max(scale, 1);
        double rate = writeBytesPerSecond;
        double t = 0;
        double level = 0;
        double[] give = new double[n];
        // Between two finishes the writers are the same, so the cache fills at most once and empties at most once:
        // no more than three events per writer, and a few steps over that means a bug, not a slow answer.
        int steps = 0;
        int maxSteps = 4 * n + 8;
        while (true) {
            for (int i = 0; i < n; i++) {
                if (!done[i] && remaining[i] <= tolerance) {
                    done[i] = true;
                    remaining[i] = 0;
                    finish[i] = t;
                }
            }
            if (allDone(done)) {
                break;
            }
            if (++steps > maxSteps) {
                throw new IllegalStateException("the fluid model did not settle in " + maxSteps + " steps: " + this
                        + " with " + writers);
            }
            double headroom = dirtyBytes - level;
            if (headroom > tolerance && dumpUnpaced(w, remaining, done, headroom, give)) {
                // Writers with no pace of their own fill the room at once, shared fairly among them.
                for (int i = 0; i < n; i++) {
                    remaining[i] -= give[i];
                    level += give[i];
                }
                level = Math.min(level, dirtyBytes);
                continue;
            }
            boolean full = headroom <= tolerance;
            double wanted = 0;
            for (int i = 0; i < n; i++) {
                if (!done[i]) {
                    wanted += w[i].bytesPerSecond();
                }
            }
            double net;
            boolean held = full && wanted > rate;
            if (held) {
                // The cache is full and the writers want more than the disk takes: they share the disk's rate.
                level = dirtyBytes;
                share(w, done, rate, give);
                net = 0;
            } else {
                for (int i = 0; i < n; i++) {
                    give[i] = done[i] ? 0 : w[i].bytesPerSecond();
                }
                net = level > 0 ? wanted - rate : Math.max(0, wanted - rate);
            }
            double dt = Double.POSITIVE_INFINITY;
            int event = -1; // a writer's index, or FILLS, or EMPTIES
            for (int i = 0; i < n; i++) {
                if (!done[i] && give[i] > 0 && remaining[i] / give[i] < dt) {
                    dt = remaining[i] / give[i];
                    event = i;
                }
            }
            if (!held && net > 0 && (dirtyBytes - level) / net < dt) {
                dt = (dirtyBytes - level) / net;
                event = FILLS;
            }
            if (!held && net < 0 && level / -net < dt) {
                dt = level / -net;
                event = EMPTIES;
            }
            if (event == -1) {
                throw new IllegalStateException("the fluid model found no next event: " + this + " with " + writers);
            }
            t += dt;
            for (int i = 0; i < n; i++) {
                if (!done[i]) {
                    remaining[i] = i == event ? 0 : remaining[i] - give[i] * dt;
                }
            }
            level = event == FILLS ? dirtyBytes
                    : event == EMPTIES ? 0
                    : Math.max(0, Math.min(dirtyBytes, level + net * dt));
        }
        double seconds = 0;
        for (double f : finish) {
            seconds = Math.max(seconds, f);
        }
        return new Result(seconds, finish, Math.max(0, seconds - unheld));
    }

    private static final int FILLS = -2;
    private static final int EMPTIES = -3;

    private static boolean allDone(boolean[] done) {
        for (boolean d : done) {
            if (!d) {
                return false;
            }
        }
        return true;
    }

    /**
     * Shares {@code headroom} bytes max-min fairly among the unfinished unpaced writers, into {@code give}; false when
     * there are none.
     */
    private static boolean dumpUnpaced(Writer[] w, double[] remaining, boolean[] done, double headroom, double[] give) {
        double[] demand = new double[w.length];
        boolean any = false;
        for (int i = 0; i < w.length; i++) {
            boolean unpaced = !done[i] && Double.isInfinite(w[i].bytesPerSecond());
            demand[i] = unpaced ? remaining[i] : 0;
            any |= unpaced;
        }
        if (any) {
            waterFill(demand, headroom, give);
        }
        return any;
    }

    /** Shares the disk's {@code rate} max-min fairly among the unfinished writers' own rates, into {@code give}. */
    private static void share(Writer[] w, boolean[] done, double rate, double[] give) {
        double[] demand = new double[w.length];
        for (int i = 0; i < w.length; i++) {
            demand[i] = done[i] ? 0 : w[i].bytesPerSecond();
        }
        waterFill(demand, rate, give);
    }

    /**
     * Max-min fair shares of {@code capacity} for {@code demand} (some may be infinite; zero demands get nothing):
     * the smallest demands are met in full, and what they leave is split equally among the rest.
     */
    private static void waterFill(double[] demand, double capacity, double[] give) {
        Integer[] order = new Integer[demand.length];
        int wanting = 0;
        for (int i = 0; i < demand.length; i++) {
            give[i] = 0;
            if (demand[i] > 0) {
                order[wanting++] = i;
            }
        }
        Arrays.sort(order, 0, wanting, (a, b) -> Double.compare(demand[a], demand[b]));
        double left = capacity;
        for (int k = 0; k < wanting; k++) {
            int i = order[k];
            double equal = left / (wanting - k);
            give[i] = Math.min(demand[i], equal);
            left -= give[i];
        }
    }

    /**
     * How far a measured time departs from the model's, as a fraction: {@code measured/model - 1}, so 0.2 is 20% slower
     * than the model and -0.2 is 20% faster. An emulation that departs by more than 15% either way is worth a warning,
     * since its device is then not the one it claims to be. NaN when the model takes no time, since then no fraction
     * means anything.
     */
    public static double departure(double measuredSeconds, double modelSeconds) {
        if (modelSeconds == 0) {
            return Double.NaN;
        }
        return measuredSeconds / modelSeconds - 1;
    }

    @Override
    public String toString() {
        return "FluidDisk[" + writeBytesPerSecond + " B/s behind " + dirtyBytes + " B of cache]";
    }
}
