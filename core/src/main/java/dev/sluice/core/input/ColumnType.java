package dev.sluice.core.input;

import java.util.Locale;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;

/** The column types the generator can fill. */
public enum ColumnType {
    INT64(new ArrowType.Int(64, true), 8),
    INT32(new ArrowType.Int(32, true), 4),
    FLOAT64(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE), 8),
    /** UTF-8 strings of 4 to 32 ASCII letters, drawn from a fixed vocabulary. */
    UTF8(ArrowType.Utf8.INSTANCE, 4 + (4 + 32) / 2);

    private final ArrowType arrowType;
    private final int meanBytesPerValue;

    ColumnType(ArrowType arrowType, int meanBytesPerValue) {
        this.arrowType = arrowType;
        this.meanBytesPerValue = meanBytesPerValue;
    }

    public ArrowType arrowType() {
        return arrowType;
    }

    /** Bytes one value takes in Arrow buffers on average (offsets included for strings, validity not). */
    int meanBytesPerValue() {
        return meanBytesPerValue;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
