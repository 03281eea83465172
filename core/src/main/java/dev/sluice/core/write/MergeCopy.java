package dev.sluice.core.write;

import dev.sluice.core.InvalidParameterException;
import java.util.Locale;

/** How per-partition files are copied into the data file at commit. */
public enum MergeCopy {
    /** {@code FileChannel.transferTo}: the kernel copies (sendfile/copy_file_range), one call per file. */
    TRANSFER,
    /** Read and write through a buffer of {@code buffer-size} bytes, as Spark's stream copy does. */
    STREAM;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static MergeCopy parse(String parameter, String value) {
        for (MergeCopy m : values()) {
            if (m.label().equals(value)) {
                return m;
            }
        }
        throw new InvalidParameterException(parameter, value, "transfer or stream");
    }
}
