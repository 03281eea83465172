package dev.sluice.network;

import dev.sluice.spi.InvalidParameterException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Which rows cross the boundary: {@code today}, Sluice's generated table (an int64 key and the configured columns,
 * partitioned by hash of the key) as the experiment always ran it; or {@code lineitem}, TPC-H lineitem-like rows
 * ({@link LineitemRows}), the shape of datafusion-distributed's TPC-H runs behind PRs #242 and #407.
 */
public enum BoundaryWorkload {
    TODAY,
    LINEITEM;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static BoundaryWorkload parse(String parameter, String value) {
        for (BoundaryWorkload w : values()) {
            if (w.label().equals(value)) {
                return w;
            }
        }
        throw new InvalidParameterException(parameter, value, "one of " + names());
    }

    public static String names() {
        return Arrays.stream(values()).map(BoundaryWorkload::label).collect(Collectors.joining(", "));
    }
}
