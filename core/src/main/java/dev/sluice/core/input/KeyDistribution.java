package dev.sluice.core.input;

import dev.sluice.spi.InvalidParameterException;
import java.util.SplittableRandom;

/** How the {@code key} column's values are drawn. */
public enum KeyDistribution {
    /** Uniform over all longs: hash partitioning spreads rows evenly. */
    UNIFORM,
    /**
     * Zipf (exponent {@value #ZIPF_EXPONENT}) over {@value #ZIPF_KEYS} distinct keys: a few hot keys, and with many
     * partitions some partitions get no key at all.
     */
    ZIPF;

    static final int ZIPF_KEYS = 128;
    static final double ZIPF_EXPONENT = 1.1;

    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static KeyDistribution parse(String parameter, String value) {
        for (KeyDistribution d : values()) {
            if (d.label().equals(value)) {
                return d;
            }
        }
        throw new InvalidParameterException(parameter, value, "uniform or zipf");
    }

    /** Draws keys; not thread-safe (one per batch being generated). */
    KeySampler sampler(SplittableRandom random) {
        return this == UNIFORM ? random::nextLong : new ZipfKeys(random);
    }

    interface KeySampler {
        long next();
    }

    private static final class ZipfKeys implements KeySampler {
        private static final double[] CDF = cdf();
        private final SplittableRandom random;

        ZipfKeys(SplittableRandom random) {
            this.random = random;
        }

        private static double[] cdf() {
            double[] cdf = new double[ZIPF_KEYS];
            double sum = 0;
            for (int rank = 1; rank <= ZIPF_KEYS; rank++) {
                sum += 1.0 / Math.pow(rank, ZIPF_EXPONENT);
                cdf[rank - 1] = sum;
            }
            for (int i = 0; i < ZIPF_KEYS; i++) {
                cdf[i] /= sum;
            }
            return cdf;
        }

        @Override
        public long next() {
            double u = random.nextDouble();
            int lo = 0;
            int hi = ZIPF_KEYS - 1;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (CDF[mid] < u) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            // Keys look like arbitrary longs, not 1..128, so that nothing downstream can rely on small values.
            return Mix.mix64(lo + 1);
        }
    }
}
