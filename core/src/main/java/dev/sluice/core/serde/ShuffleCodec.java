package dev.sluice.core.serde;

import dev.sluice.core.InvalidParameterException;
import java.util.Arrays;
import java.util.stream.Collectors;

/** How a partition's Arrow IPC stream is compressed. */
public enum ShuffleCodec {
    /** Plain Arrow IPC. */
    NONE("none"),
    /** Arrow IPC body compression {@code LZ4_FRAME}: each buffer of a record batch is one LZ4 frame. */
    LZ4_FRAME("lz4-frame"),
    /**
     * The IPC stream wrapped as Spark's {@code spark.io.compression.codec=lz4} does: lz4-java's
     * {@code LZ4BlockOutputStream} with 32 KiB blocks and XXHash32 checksums (seed {@code 0x9747b28c}).
     */
    LZ4_BLOCK("lz4-block");

    private final String label;

    ShuffleCodec(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public static ShuffleCodec parse(String parameter, String value) {
        for (ShuffleCodec c : values()) {
            if (c.label.equals(value)) {
                return c;
            }
        }
        throw new InvalidParameterException(parameter, value, "one of " + names());
    }

    public static String names() {
        return Arrays.stream(values()).map(ShuffleCodec::label).collect(Collectors.joining(", "));
    }
}
