package dev.sluice.spi;

import java.util.Locale;

/** Byte quantities as people write them: {@code 64m}, {@code 32KiB}, {@code 1.5g}. Binary units throughout. */
@WriterGiven
public final class Bytes {
    public static final long KiB = 1L << 10;
    public static final long MiB = 1L << 20;
    public static final long GiB = 1L << 30;

    private Bytes() {}

    /**
     * Parses {@code 123}, {@code 32k}, {@code 32KiB}, {@code 64m}, {@code 1.5g} (suffixes k/m/g/t with optional
     * {@code b}/{@code ib}, any case; binary multiples).
     *
     * @throws NumberFormatException with a message saying what is accepted
     */
    public static long parse(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        if (s.endsWith("ib")) {
            s = s.substring(0, s.length() - 2);
        } else if (s.endsWith("b")) {
            s = s.substring(0, s.length() - 1);
        }
        long multiplier = 1;
        if (!s.isEmpty()) {
            switch (s.charAt(s.length() - 1)) {
                case 'k': multiplier = KiB; break;
                case 'm': multiplier = MiB; break;
                case 'g': multiplier = GiB; break;
                case 't': multiplier = GiB * 1024; break;
                default: break;
            }
            if (multiplier != 1) {
                s = s.substring(0, s.length() - 1);
            }
        }
        if (s.isEmpty() || !s.matches("[0-9]+(\\.[0-9]+)?")) {
            throw new NumberFormatException("'" + text + "' is not a byte size (examples: 4096, 32k, 64m, 1.5g)");
        }
        double value = Double.parseDouble(s) * multiplier;
        if (value >= Long.MAX_VALUE) {
            throw new NumberFormatException("'" + text + "' is too large");
        }
        return (long) value;
    }

    /**
     * Parses a byte size per second as {@link #parse} does, written with or without {@code /s}: {@code 100m},
     * {@code 100m/s}.
     *
     * @throws NumberFormatException with a message saying what is accepted
     */
    public static long parseRate(String text) {
        return parse(text.trim().replaceFirst("/s$", ""));
    }

    /** Shortest exact binary-unit form for powers of two and round sizes, else bytes: {@code 32KiB}, {@code 1000B}. */
    public static String format(long bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
        int unit = 0;
        long value = bytes;
        while (value != 0 && value % 1024 == 0 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return value + units[unit];
    }
}
