package dev.sluice.core.measure;

import dev.sluice.spi.Bytes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;

/** Fields of {@code /proc/meminfo} ({@code Key:   123 kB}), in bytes. */
public final class Meminfo {
    /** This machine's. */
    public static final Path PROC = Paths.get("/proc/meminfo");

    private Meminfo() {}

    /**
     * The values of {@code keys} in {@code file}, in bytes, in the order asked; null where the file cannot be read or
     * lacks one of them.
     */
    public static long[] read(Path file, String... keys) {
        long[] values = new long[keys.length];
        Arrays.fill(values, -1);
        try {
            for (String line : Files.readAllLines(file)) {
                int colon = line.indexOf(':');
                if (colon < 0) {
                    continue;
                }
                String key = line.substring(0, colon);
                for (int i = 0; i < keys.length; i++) {
                    if (keys[i].equals(key)) {
                        values[i] = Long.parseLong(line.substring(colon + 1).trim().split("\\s+")[0]) * Bytes.KiB;
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return Arrays.stream(values).anyMatch(v -> v < 0) ? null : values;
    }

    /** {@code MemAvailable} of {@code /proc/meminfo}, or {@link Long#MAX_VALUE} where it cannot be read. */
    public static long available() {
        long[] available = read(PROC, "MemAvailable");
        return available == null ? Long.MAX_VALUE : available[0];
    }
}
