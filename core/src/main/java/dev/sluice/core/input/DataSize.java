package dev.sluice.core.input;

import dev.sluice.spi.InvalidParameterException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Named input sizes, as bytes of Arrow input per map task. The five large ones are the configurations of the seed
 * report (402 MB to 1.95 GB of shuffle bytes per map task, decimal units as the report prints them).
 */
public enum DataSize {
    TINY(4_000_000L, 1),
    SMALL(402_000_000L, 1),
    MEDIUM(803_000_000L, 2),
    LARGE(1_180_000_000L, 3),
    XLARGE(1_570_000_000L, 4),
    XXLARGE(1_950_000_000L, 5);

    private final long bytes;
    private final int seedBatches;

    DataSize(long bytes, int seedBatches) {
        this.bytes = bytes;
        this.seedBatches = seedBatches;
    }

    /** The seed report's "GpuScan Batches/Task" for this configuration (1 for tiny). */
    public int seedBatches() {
        return seedBatches;
    }

    public long bytes() {
        return bytes;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static DataSize parse(String parameter, String name) {
        for (DataSize size : values()) {
            if (size.label().equals(name)) {
                return size;
            }
        }
        throw new InvalidParameterException(parameter, name, "one of " + names());
    }

    public static String names() {
        return Arrays.stream(values()).map(DataSize::label).collect(Collectors.joining(", "));
    }
}
