package dev.sluice.spi.option;

import dev.sluice.spi.Bytes;
import dev.sluice.spi.WriterGiven;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One option a strategy declares: its name in a spec ({@code NAME:key=value}), its type, its default, what it means,
 * and where upstream sets that default. The default is upstream's wherever the strategy models an upstream design;
 * Sluice's improvements are the other values. Values are parsed and checked here, so a bad value is refused with what
 * is allowed before anything runs.
 */
@WriterGiven
public final class StrategyOption<T> {
    private final String name;
    private final T defaultValue;
    private final String allowed;
    private final String meaning;
    private final String upstream;
    private final Function<String, T> parser;
    private final Function<T, String> formatter;

    private StrategyOption(String name, T defaultValue, String allowed, String meaning, String upstream,
                           Function<String, T> parser, Function<T, String> formatter) {
        if (!name.matches("[a-zA-Z][a-zA-Z0-9]*")) {
            throw new IllegalArgumentException("option name '" + name + "' is not a plain word");
        }
        this.name = name;
        this.defaultValue = defaultValue;
        this.allowed = allowed;
        this.meaning = meaning;
        this.upstream = upstream;
        this.parser = parser;
        this.formatter = formatter;
    }

    /** {@code true} or {@code false}. */
    public static StrategyOption<Boolean> flag(String name, boolean defaultValue, String meaning, String upstream) {
        return new StrategyOption<>(name, defaultValue, "true or false", meaning, upstream, text -> {
            switch (text) {
                case "true": return Boolean.TRUE;
                case "false": return Boolean.FALSE;
                default: throw new IllegalArgumentException();
            }
        }, String::valueOf);
    }

    /** A byte size from {@code min} to {@code max}, written as {@code 32k}, {@code 128m}, {@code 2147483647}. */
    public static StrategyOption<Long> size(String name, long defaultValue, long min, long max, String meaning,
                                            String upstream) {
        String range = max >= Long.MAX_VALUE / 4 ? "a byte size of at least " + Bytes.format(min)
                : "a byte size from " + Bytes.format(min) + " to " + Bytes.format(max);
        return new StrategyOption<>(name, defaultValue, range + " (e.g. 64k, 32m)", meaning, upstream, text -> {
                    long v = Bytes.parse(text);
                    if (v < min || v > max) {
                        throw new IllegalArgumentException();
                    }
                    return v;
                }, Bytes::format);
    }

    /** An integer from {@code min} to {@code max}. */
    public static StrategyOption<Integer> integer(String name, int defaultValue, int min, int max, String meaning,
                                                  String upstream) {
        return new StrategyOption<>(name, defaultValue, "an integer from " + min + " to " + max, meaning, upstream,
                text -> {
                    int v = Integer.parseInt(text);
                    if (v < min || v > max) {
                        throw new IllegalArgumentException();
                    }
                    return v;
                }, String::valueOf);
    }

    /**
     * A thread count, or {@code threads} for "as many as the executor's writer threads" ({@code --threads}), which
     * is stored as 0.
     */
    public static StrategyOption<Integer> threadCount(String name, String meaning, String upstream) {
        return new StrategyOption<>(name, 0, "an integer from 1 to 1024, or threads (as many as --threads)", meaning,
                upstream, text -> {
                    if (text.equals("threads")) {
                        return 0;
                    }
                    int v = Integer.parseInt(text);
                    if (v < 1 || v > 1024) {
                        throw new IllegalArgumentException();
                    }
                    return v;
                }, v -> v == 0 ? "threads" : String.valueOf(v));
    }

    /** A fraction in (0, 1]. */
    public static StrategyOption<Double> fraction(String name, double defaultValue, String meaning, String upstream) {
        return new StrategyOption<>(name, defaultValue, "a number in (0, 1]", meaning, upstream, text -> {
            double v = Double.parseDouble(text);
            if (!(v > 0 && v <= 1)) {
                throw new IllegalArgumentException();
            }
            return v;
        }, v -> String.format(Locale.ROOT, "%s", v));
    }

    /** One of the constants of {@code type}, by label. */
    public static <E extends Enum<E> & Choice> StrategyOption<E> choice(String name, Class<E> type, E defaultValue,
                                                                         String meaning, String upstream) {
        E[] all = type.getEnumConstants();
        String allowed = Arrays.stream(all).map(Choice::label).collect(Collectors.joining(" or "));
        return new StrategyOption<>(name, defaultValue, allowed, meaning, upstream, text -> {
            for (E e : all) {
                if (e.label().equals(text)) {
                    return e;
                }
            }
            throw new IllegalArgumentException();
        }, Choice::label);
    }

    public String name() {
        return name;
    }

    public T defaultValue() {
        return defaultValue;
    }

    /** What values are allowed, in words. */
    public String allowed() {
        return allowed;
    }

    public String meaning() {
        return meaning;
    }

    /** Where upstream sets the default: file, setting and commit. */
    public String upstream() {
        return upstream;
    }

    /** Parses {@code text}; throws {@link IllegalArgumentException} (message irrelevant) if it is not allowed. */
    T parse(String text) {
        try {
            return parser.apply(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** The value as a spec writes it. */
    public String format(Object value) {
        @SuppressWarnings("unchecked")
        T typed = (T) value;
        return formatter.apply(typed);
    }

    @Override
    public String toString() {
        return name;
    }
}
