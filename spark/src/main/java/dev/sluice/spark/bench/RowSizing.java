package dev.sluice.spark.bench;

import dev.sluice.spi.InvalidParameterException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What one row of the seed job counts for against the seed's shuffle bytes per map task, which sets the rows a task
 * makes. The seed report's "shuffle bytes per task" (402 MB at Small) are what its map tasks wrote: Spark's shuffle
 * write bytes, after the codec. {@link #OUTPUT} sizes a task by that, with a row's share of per-batch's map output
 * measured in Spark on this run's rows ({@link OutputSizing}); {@link #ROWS} by the rows as the shuffle serializes
 * them, before the codec, as spark-bench did before (its tasks then wrote 0.63 to 0.64 of the seed's bytes: lz4
 * compresses the four columns' 44 bytes to about 28).
 *
 * @param basis       {@link #OUTPUT} or {@link #ROWS}
 * @param bytesPerRow the bytes a row counts for
 * @param how         where {@code bytesPerRow} came from, in words
 */
record RowSizing(String basis, double bytesPerRow, String how) {
    static final String OUTPUT = "output";
    static final String ROWS = "rows";

    /** A row counted at its serialized bytes, before the codec. */
    static final RowSizing SERIALIZED = new RowSizing(ROWS, Shape.ROW_BYTES, "UnsafeRowSerializer's bytes of a row "
            + "(" + Shape.ROW_BYTES + "), before the codec");

    RowSizing {
        if (!(bytesPerRow > 0) || Double.isInfinite(bytesPerRow)) {
            throw new IllegalArgumentException("a row counts for a positive number of bytes, not " + bytesPerRow);
        }
    }

    /**
     * A row's share of a measured map output: {@code shuffleBytes} written for {@code rows} rows.
     *
     * @throws IllegalArgumentException where either is not positive
     */
    static RowSizing output(long shuffleBytes, long rows, String how) {
        if (shuffleBytes <= 0 || rows <= 0) {
            throw new IllegalArgumentException("a map output of " + shuffleBytes + " bytes for " + rows
                    + " rows sizes nothing");
        }
        return new RowSizing(OUTPUT, shuffleBytes / (double) rows, how);
    }

    /** {@code --size-by}'s value, checked. */
    static String basis(String value) {
        if (!OUTPUT.equals(value) && !ROWS.equals(value)) {
            throw new InvalidParameterException("--size-by", value, OUTPUT + " (the seed's shuffle bytes are a "
                    + "task's map output, after the codec; measured first) or " + ROWS + " (serialized rows, "
                    + "before the codec)");
        }
        return value;
    }

    /** The figures a result line records. */
    Map<String, Object> json() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("basis", basis);
        json.put("bytesPerRow", Double.parseDouble(String.format(Locale.ROOT, "%.4f", bytesPerRow)));
        json.put("how", how);
        return json;
    }
}
